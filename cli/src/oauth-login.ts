import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthTokenResponse } from '@hop/shared';
import { HOP_CLI_CLIENT_ID, HOP_CLI_REDIRECT_PATH } from '@hop/shared/constants';
import type { ConfigStore, StoredOAuth } from './config-store.js';
import { AuthRequiredError, UsageError } from './errors.js';

/** How long `hop login` waits for the browser to come back. */
const CALLBACK_TIMEOUT_MS = 5 * 60_000;
/** Refresh a little before the access token expires, so a command never starts with a dying one. */
const REFRESH_MARGIN_MS = 60_000;

export class OAuthRequestError extends Error {
  constructor(readonly error: string, description: string | undefined) {
    super(`${description ?? error} (${error})`);
  }
}

/** POST to the token or revocation endpoint as a public client (RFC 6749 2.3: client_id, no secret). */
export async function postOAuth(apiUrl: string, path: 'token' | 'revoke' | 'device/code', form: Record<string, string>): Promise<Record<string, unknown>> {
  const body = new URLSearchParams({ client_id: HOP_CLI_CLIENT_ID, ...form });
  let res: Response;
  try {
    res = await fetch(`${apiUrl.replace(/\/+$/, '')}/v1/oauth/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body,
    });
  } catch (err) {
    throw new Error(`cannot reach ${apiUrl}: ${(err as Error).message}`);
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) throw new OAuthRequestError(String(json.error ?? res.status), json.error_description as string | undefined);
  return json;
}

const pageHtml = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:15vh auto;max-width:32rem"><h1>${title}</h1><p>${text}</p></body></html>`;

export interface PendingLogin {
  /** The authorize page to open in the browser. */
  url: string;
  /** Resolves with the code once the browser comes back to the loopback address. */
  code: Promise<string>;
  redirectUri: string;
  verifier: string;
  close(): void;
}

/**
 * Starts the loopback half of RFC 8252: a one-shot HTTP server on 127.0.0.1 and a random port,
 * a PKCE S256 verifier and a state, and the authorize URL that points back at it.
 */
export async function startLogin(apiUrl: string, scopes?: string[]): Promise<PendingLogin> {
  // Loaded here, not with the module: every command imports this file for the token refresh.
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  let settle!: { resolve: (code: string) => void; reject: (err: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined); // observed by the caller; never an unhandled rejection
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== HOP_CLI_REDIRECT_PATH) {
      res.writeHead(404).end();
      return;
    }
    const answer = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(pageHtml(title, text));
    if (u.searchParams.get('state') !== state) {
      answer(400, 'Login failed', 'This answer does not belong to the login in progress.');
      return; // a stray or forged request: keep waiting for the real one
    }
    const error = u.searchParams.get('error');
    const got = u.searchParams.get('code');
    if (error || !got) {
      answer(400, 'Login cancelled', 'You can close this tab.');
      settle.reject(new UsageError(`login ${error === 'access_denied' ? 'denied in the browser' : `failed: ${u.searchParams.get('error_description') ?? error}`}`));
      return;
    }
    answer(200, 'Logged in to Hop', 'You can close this tab and return to the terminal.');
    settle.resolve(got);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const timer = setTimeout(() => settle.reject(new UsageError('timed out waiting for the browser (5 minutes)')), CALLBACK_TIMEOUT_MS);
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${HOP_CLI_REDIRECT_PATH}`;
  const q = new URLSearchParams({
    response_type: 'code', client_id: HOP_CLI_CLIENT_ID, redirect_uri: redirectUri, state,
    code_challenge: challenge, code_challenge_method: 'S256',
  });
  if (scopes?.length) q.set('scope', scopes.join(' '));
  return {
    url: `${apiUrl.replace(/\/+$/, '')}/v1/oauth/authorize?${q}`,
    code,
    redirectUri,
    verifier,
    close: () => {
      clearTimeout(timer);
      server.close();
      server.closeAllConnections();
    },
  };
}

export async function exchangeCode(apiUrl: string, login: PendingLogin, code: string): Promise<OAuthTokenResponse> {
  return (await postOAuth(apiUrl, 'token', {
    grant_type: 'authorization_code', code, redirect_uri: login.redirectUri, code_verifier: login.verifier,
  })) as unknown as OAuthTokenResponse;
}

/** Stores an OAuth login: the access token is the credential; the rest is kept to refresh and revoke. */
export function storeTokens(store: ConfigStore, tokens: OAuthTokenResponse, now = Date.now()) {
  store.set('credential', tokens.access_token);
  store.set('oauth', {
    clientId: HOP_CLI_CLIENT_ID,
    refreshToken: tokens.refresh_token,
    expiresAt: new Date(now + tokens.expires_in * 1000).toISOString(),
    scopes: tokens.scope.split(' ').filter(Boolean),
    workspaceId: tokens.workspace_id ?? null,
  } satisfies StoredOAuth);
}

/**
 * Before a command runs: an access token about to expire is exchanged for a new pair (the refresh
 * token rotates). A refused refresh (expired, revoked, reused) forgets the login: exit 4.
 */
export async function refreshIfExpiring(store: ConfigStore, apiUrl: string, now = Date.now()): Promise<void> {
  const oauth = store.get('oauth');
  if (!oauth || !store.get('credential')) return;
  if (Date.parse(oauth.expiresAt) - REFRESH_MARGIN_MS > now) return;
  try {
    const tokens = (await postOAuth(apiUrl, 'token', { grant_type: 'refresh_token', refresh_token: oauth.refreshToken })) as unknown as OAuthTokenResponse;
    storeTokens(store, tokens, now);
  } catch (err) {
    if (!(err instanceof OAuthRequestError)) throw err;
    store.delete('credential');
    store.delete('oauth');
    throw new AuthRequiredError(`your login ended (${err.message}): run \`hop login\` again`);
  }
}

/** RFC 7009: revoking the refresh token ends the whole grant, access token included. */
export async function revokeTokens(apiUrl: string, oauth: StoredOAuth): Promise<void> {
  await postOAuth(apiUrl, 'revoke', { token: oauth.refreshToken, token_type_hint: 'refresh_token' });
}
