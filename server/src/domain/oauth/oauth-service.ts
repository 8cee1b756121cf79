import { createHash } from 'node:crypto';
import { HOP_CLI_CLIENT_ID, SCOPES, type OAuthTokenResponse, type Scope } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { randomBase62 } from '../ids.js';
import type { Principal } from '../auth/credentials.js';
import type { WorkspacesService } from '../workspaces/workspaces-service.js';
import type { OAuthClientsService, RegisteredClient } from './oauth-clients-service.js';
import { OAuthError } from './oauth-errors.js';
import { S256_CHALLENGE, verifierMatches } from './pkce.js';
import { redirectUriAllowed } from './redirect-uris.js';
import type { OAuthGrants } from './oauth-grants.js';
import { revokeGrantRows } from './oauth-grants.js';

/** docs/api.md, Access: codes 10 minutes, access tokens 1 hour, refresh tokens 90 days. */
export const CODE_TTL_SECONDS = 10 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 90 * 24 * 60 * 60;

/** Opaque tokens: a prefix (to recognise them, e.g. in secret scanners) and 256 random bits. */
export const ACCESS_TOKEN_PREFIX = 'hopat_';
export const REFRESH_TOKEN_PREFIX = 'hoprt_';
const CODE_PREFIX = 'hopac_';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const secret = (prefix: string) => prefix + randomBase62(43);

/** A validated authorization request: what the consent page shows and the approval acts on. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: Scope[];
  state?: string;
  codeChallenge: string;
}

/**
 * The outcome of checking `GET /v1/oauth/authorize`'s query. `page`: the client or redirect URI
 * cannot be trusted, so the user sees an error page and is never redirected (RFC 6749 4.1.2.1);
 * `redirect`: an error to send back to the (verified) redirect URI; `ok`: show login or consent.
 */
export type AuthorizeCheck =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; redirectUri: string; state?: string; error: OAuthError }
  | { kind: 'ok'; client: RegisteredClient; request: AuthorizationRequest };

interface GrantRow {
  id: string;
  client_id: string;
  user_id: string;
  /** The workspace a third-party grant is bound to; for the CLI's own login only its default (or null). */
  workspace_id: string | null;
  scopes: Scope[];
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** Parses a space-delimited scope string: known scopes only; `keys:manage` for the CLI only. */
export function parseScopes(client: RegisteredClient, scope: string | undefined, fallback: readonly Scope[] | null): Scope[] {
  const words = (scope ?? '').split(' ').filter(Boolean);
  if (words.length === 0) {
    if (fallback) return [...fallback];
    throw new OAuthError('invalid_scope', 'scope is required: a space-separated list of Hop scopes');
  }
  const unknown = words.filter((w) => !(SCOPES as readonly string[]).includes(w));
  if (unknown.length) throw new OAuthError('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
  if (words.includes('keys:manage') && !client.firstParty) {
    throw new OAuthError('invalid_scope', 'keys:manage cannot be granted to third-party clients');
  }
  return [...new Set(words)] as Scope[];
}

/**
 * The authorization server (docs/api.md, Access): authorization code + PKCE S256, refresh-token rotation
 * with reuse detection, revocation, and the bearer tokens `authenticate()` accepts.
 */
export function createOAuthService(deps: { db: Database; clock: Clock; clients: OAuthClientsService; workspaces: WorkspacesService; grants: OAuthGrants }) {
  const { db, clock, clients, workspaces, grants } = deps;
  const later = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000);

  const revokeGrant = async (q: Database, grantId: string) => {
    await revokeGrantRows(q, grantId, clock.now());
  };

  /** A fresh access and refresh token for a grant, both with `scopes`. */
  async function issueTokens(q: Pick<Database, 'query'>, grant: GrantRow, scopes: Scope[]): Promise<OAuthTokenResponse> {
    const access = secret(ACCESS_TOKEN_PREFIX);
    const refresh = secret(REFRESH_TOKEN_PREFIX);
    await q.query(
      `insert into oauth_tokens (token_hash, grant_id, kind, scopes, expires_at) values
       ($1, $3, 'access', $4::text[], $5), ($2, $3, 'refresh', $4::text[], $6)`,
      [hash(access), hash(refresh), grant.id, scopes, later(ACCESS_TOKEN_TTL_SECONDS), later(REFRESH_TOKEN_TTL_SECONDS)],
    );
    return {
      access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh,
      scope: scopes.join(' '), workspace_id: grant.workspace_id,
    };
  }

  /** Whether the user may grant `clientId` that workspace: one of theirs, or none for the CLI's own login. */
  async function grantAllowed(clientId: string, userId: string, workspaceId: string | null): Promise<boolean> {
    return workspaceId === null ? clientId === HOP_CLI_CLIENT_ID : Boolean(await workspaces.membership(userId, workspaceId));
  }

  /** A grant row (checked with `grantAllowed` first, outside the transaction: the embedded database has one connection). */
  async function createGrant(q: Pick<Database, 'query'>, g: { clientId: string; userId: string; workspaceId: string | null; scopes: Scope[] }): Promise<string> {
    const grantId = `oag_${randomBase62(20)}`;
    await q.query(
      'insert into oauth_grants (id, client_id, user_id, workspace_id, scopes) values ($1, $2, $3, $4, $5::text[])',
      [grantId, g.clientId, g.userId, g.workspaceId, g.scopes],
    );
    return grantId;
  }

  return {
    async checkAuthorizeRequest(query: Record<string, string | undefined>): Promise<AuthorizeCheck> {
      const clientId = query.client_id;
      if (!clientId) return { kind: 'page', message: 'The request names no client (client_id is missing).' };
      const client = await clients.find(clientId);
      if (!client) return { kind: 'page', message: 'The application that sent you here is not registered with Hop.' };
      const redirectUri = query.redirect_uri;
      if (!redirectUri) return { kind: 'page', message: 'The request names no redirect_uri.' };
      if (!redirectUriAllowed(client.redirectUris, redirectUri)) {
        return { kind: 'page', message: 'The redirect address of this request is not registered for this application, so Hop will not send you there.' };
      }
      const state = query.state;
      const fail = (error: OAuthError): AuthorizeCheck => ({ kind: 'redirect', redirectUri, state, error });
      if (query.response_type !== 'code') {
        return fail(new OAuthError('unsupported_response_type', 'only response_type=code is supported'));
      }
      if (query.code_challenge_method !== 'S256') {
        return fail(new OAuthError('invalid_request', 'PKCE is required with code_challenge_method=S256 (plain is not accepted)'));
      }
      if (!query.code_challenge || !S256_CHALLENGE.test(query.code_challenge)) {
        return fail(new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)'));
      }
      let scopes: Scope[];
      try {
        scopes = parseScopes(client, query.scope, client.firstParty ? SCOPES : null);
      } catch (err) {
        return fail(err as OAuthError);
      }
      return { kind: 'ok', client, request: { clientId, redirectUri, scopes, state, codeChallenge: query.code_challenge } };
    },

    /**
     * The user approved: a grant and a single-use code for it. A third-party grant is bound to the
     * chosen workspace; the CLI's own (`hop-cli`) acts in all the user's workspaces, and the chosen
     * one (none when the user has none yet) is only its default.
     */
    async approve(request: AuthorizationRequest, userId: string, workspaceId: string | null): Promise<string | null> {
      if (!(await grantAllowed(request.clientId, userId, workspaceId))) return null;
      const code = secret(CODE_PREFIX);
      await db.transaction(async (tx) => {
        const grantId = await createGrant(tx, { clientId: request.clientId, userId, workspaceId, scopes: request.scopes });
        await tx.query(
          'insert into oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at) values ($1, $2, $3, $4, $5)',
          [hash(code), grantId, request.redirectUri, request.codeChallenge, later(CODE_TTL_SECONDS)],
        );
      });
      return code;
    },

    grantAllowed,
    createGrant,

    /** A fresh token pair for an approved grant (the device flow's last step). */
    async issueForGrant(q: Pick<Database, 'query'>, grantId: string): Promise<OAuthTokenResponse> {
      const [grant] = await q.query<GrantRow>('select * from oauth_grants where id = $1 and revoked_at is null', [grantId]);
      if (!grant) throw new OAuthError('invalid_grant', 'the authorization was revoked');
      return issueTokens(q, grant, grant.scopes);
    },

    /** grant_type=authorization_code. A code works once; presenting it again revokes what it gave. */
    async exchangeCode(client: RegisteredClient, input: { code?: string; redirectUri?: string; codeVerifier?: string }): Promise<OAuthTokenResponse> {
      if (!input.code) throw new OAuthError('invalid_request', 'code is required');
      if (!input.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
      if (!input.redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
      const codeHash = hash(input.code);
      // Claim the code atomically: of two racing exchanges one wins, the other is a reuse.
      const [row] = await db.query<{ grant_id: string; redirect_uri: string; code_challenge: string; expires_at: Date }>(
        'update oauth_codes set used_at = $2 where code_hash = $1 and used_at is null returning *',
        [codeHash, clock.now()],
      );
      if (!row) {
        const [used] = await db.query<{ grant_id: string }>('select grant_id from oauth_codes where code_hash = $1', [codeHash]);
        if (!used) throw new OAuthError('invalid_grant', 'the authorization code is unknown');
        // RFC 6749 4.1.2: a code used twice may have been stolen; revoke what it was exchanged for.
        await revokeGrant(db, used.grant_id);
        throw new OAuthError('invalid_grant', 'the authorization code was already used; the tokens issued for it are revoked');
      }
      // From here on the code is spent, whatever goes wrong: a wrong verifier cannot be retried.
      const [grant] = await db.query<GrantRow>('select * from oauth_grants where id = $1', [row.grant_id]);
      if (!grant || grant.revoked_at) throw new OAuthError('invalid_grant', 'the authorization was revoked');
      if (grant.client_id !== client.id) throw new OAuthError('invalid_grant', 'the code was issued to another client');
      if (row.expires_at.getTime() <= clock.now().getTime()) throw new OAuthError('invalid_grant', 'the authorization code expired (codes live 10 minutes)');
      if (row.redirect_uri !== input.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
      if (!verifierMatches(input.codeVerifier, row.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
      return issueTokens(db, grant, grant.scopes);
    },

    /** grant_type=refresh_token: rotation on every use; a used refresh token revokes the grant. */
    async refresh(client: RegisteredClient, input: { refreshToken?: string; scope?: string }): Promise<OAuthTokenResponse> {
      if (!input.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
      const tokenHash = hash(input.refreshToken);
      const [row] = await db.query<{ grant_id: string; scopes: Scope[]; expires_at: Date; used_at: Date | null }>(
        `select * from oauth_tokens where token_hash = $1 and kind = 'refresh'`,
        [tokenHash],
      );
      if (!row) throw new OAuthError('invalid_grant', 'the refresh token is unknown or revoked');
      const [grant] = await db.query<GrantRow>('select * from oauth_grants where id = $1', [row.grant_id]);
      if (!grant || grant.revoked_at) throw new OAuthError('invalid_grant', 'the authorization was revoked');
      if (grant.client_id !== client.id) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
      if (row.expires_at.getTime() <= clock.now().getTime()) throw new OAuthError('invalid_grant', 'the refresh token expired');
      let scopes = row.scopes;
      if (input.scope !== undefined) {
        const asked = parseScopes(client, input.scope, row.scopes);
        if (asked.some((s) => !row.scopes.includes(s))) throw new OAuthError('invalid_scope', 'a refresh cannot add scopes to the grant');
        scopes = asked;
      }
      // Claim the token atomically: of two racing uses, one wins, the other is a reuse.
      const claimed = await db.query('update oauth_tokens set used_at = $2 where token_hash = $1 and used_at is null returning grant_id', [tokenHash, clock.now()]);
      if (claimed.length === 0) {
        await revokeGrant(db, grant.id);
        throw new OAuthError('invalid_grant', 'the refresh token was already used; the whole authorization is revoked');
      }
      await grants.touch(grant.id, grant.last_used_at);
      return issueTokens(db, grant, scopes);
    },

    /**
     * RFC 7009: revoking an access or refresh token revokes the whole grant. Unknown tokens, and
     * tokens of another client, answer success without effect (the spec's 200 for invalid tokens).
     */
    async revoke(client: RegisteredClient, token: string | undefined): Promise<void> {
      if (!token) throw new OAuthError('invalid_request', 'token is required');
      const [row] = await db.query<{ grant_id: string; client_id: string }>(
        'select t.grant_id, g.client_id from oauth_tokens t join oauth_grants g on g.id = t.grant_id where t.token_hash = $1',
        [hash(token)],
      );
      if (!row || row.client_id !== client.id) return;
      await revokeGrant(db, row.grant_id);
    },

    /** The principal behind an access token, or null when it is unknown, expired or revoked. */
    async authenticate(token: string): Promise<Principal | null> {
      if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 100) return null;
      const [row] = await db.query<GrantRow & { token_scopes: Scope[] }>(
        `select g.*, t.scopes as token_scopes from oauth_tokens t join oauth_grants g on g.id = t.grant_id
         where t.token_hash = $1 and t.kind = 'access' and t.expires_at > $2 and g.revoked_at is null`,
        [hash(token), clock.now()],
      );
      if (!row) return null;
      await grants.touch(row.id, row.last_used_at);
      // The CLI's own login acts in every workspace of the user (with the user's role in each).
      const bound = row.client_id === HOP_CLI_CLIENT_ID ? {} : { workspaceId: row.workspace_id! };
      return { kind: 'oauth', userId: row.user_id, scopes: row.token_scopes, credentialId: row.id, clientId: row.client_id, ...bound };
    },

    /** Client authentication at the token and revocation endpoints (RFC 6749 2.3). */
    async authenticateClient(input: { clientId?: string; clientSecret?: string; method: 'basic' | 'post' | 'none' }): Promise<RegisteredClient> {
      if (!input.clientId) throw new OAuthError('invalid_client', 'client authentication failed: no client_id');
      const client = await clients.find(input.clientId);
      if (!client) throw new OAuthError('invalid_client', 'client authentication failed: unknown client');
      if (client.type === 'confidential') {
        if (input.method === 'none' || !input.clientSecret || !clients.secretMatches(client, input.clientSecret)) {
          throw new OAuthError('invalid_client', 'client authentication failed: a confidential client must send its client_secret');
        }
      } else if (input.clientSecret) {
        throw new OAuthError('invalid_client', 'a public client has no secret');
      }
      return client;
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
