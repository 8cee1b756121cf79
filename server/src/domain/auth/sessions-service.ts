import type { Session } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';
import { iso } from '../timestamps.js';
import type { OAuthGrants } from '../oauth/oauth-grants.js';
import { TOUCH_EVERY_MS } from '../oauth/oauth-grants.js';
import { SESSION_TTL_SECONDS, type SessionClaims, type SessionTokens } from './session-tokens.js';

/** User agents are kept as sent, cut to this length. */
const MAX_USER_AGENT = 300;

interface SessionRow {
  id: string;
  user_id: string;
  user_agent: string | null;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

/** The sign-in the caller made this request with, so "all others" can spare it. */
export interface CurrentSignIn {
  sessionId?: string;
  /** The CLI's own OAuth login (its grant). */
  cliGrantId?: string;
}

/**
 * Sign-in sessions (docs/api.md, Accounts). A session token is a signed JWT naming a row of
 * `sessions`; the token is good only while its row stands, and every process reads the row on
 * each request (a primary-key read, as OAuth access tokens are checked), so ending a session
 * answers 401 at once on every process, with no cache to invalidate. `last_used_at` is written at
 * most once a minute.
 */
export function createSessions(deps: { db: Queryable; clock: Clock; newId: IdGenerator; tokens: SessionTokens; grants: OAuthGrants }) {
  const { db, clock, newId, tokens, grants } = deps;

  const toSession = (currentId: string | undefined) => (r: SessionRow): Session => ({
    id: r.id,
    createdAt: iso(r.created_at),
    lastUsedAt: iso(r.last_used_at),
    userAgent: r.user_agent,
    current: r.id === currentId,
  });

  return {
    /** A new session for the user, and its token. */
    async start(userId: string, userAgent: string | undefined): Promise<{ token: string; expiresAt: Date }> {
      const sessionId = newId('ses');
      const signed = await tokens.sign({ userId, sessionId });
      const now = clock.now();
      await db.query(
        'insert into sessions (id, user_id, user_agent, created_at, last_used_at, expires_at) values ($1, $2, $3, $4, $4, $5)',
        [sessionId, userId, userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null, now, new Date(now.getTime() + SESSION_TTL_SECONDS * 1000)],
      );
      return signed;
    },

    /** The claims of a session token whose session still stands, or null. */
    async verify(token: string): Promise<SessionClaims | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const [row] = await db.query<Pick<SessionRow, 'user_id' | 'last_used_at'>>(
        'select user_id, last_used_at from sessions where id = $1 and expires_at > $2', [claims.sessionId, clock.now()],
      );
      if (!row || row.user_id !== claims.userId) return null;
      const now = clock.now();
      if (now.getTime() - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
        await db.query('update sessions set last_used_at = $2 where id = $1', [claims.sessionId, now]);
      }
      return claims;
    },

    /** The user's standing sessions, oldest first. */
    async list(userId: string, currentId: string | undefined, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<SessionRow>(
        `select * from sessions where user_id = $1 and expires_at > $2
           and ($3::timestamptz is null or (created_at, id) > ($3::timestamptz, $4))
         order by created_at, id limit $5`,
        [userId, clock.now(), t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toSession(currentId), afterCreated);
    },

    /** Ends one of the user's sessions; another user's, or an unknown one, is 404. */
    async end(userId: string, sessionId: string): Promise<number> {
      const rows = await db.query('delete from sessions where id = $1 and user_id = $2 returning 1', [sessionId, userId]);
      if (rows.length === 0) throw notFound('session');
      return rows.length;
    },

    /** Ends the sign-in a request was made with: its session, or the CLI login it came from. */
    async endCurrent(userId: string, current: CurrentSignIn): Promise<number> {
      if (current.sessionId) return (await db.query('delete from sessions where id = $1 and user_id = $2 returning 1', [current.sessionId, userId])).length;
      if (current.cliGrantId) return (await grants.revokeCliLogin(userId, current.cliGrantId)) ? 1 : 0;
      return 0;
    },

    /**
     * Signs the user out everywhere but `keep` (nothing kept: everywhere): every other session and
     * every other CLI login. Third-party apps stay connected; they are revoked one by one.
     */
    async endOthers(userId: string, keep: CurrentSignIn = {}): Promise<number> {
      const ended = await db.query('delete from sessions where user_id = $1 and id <> $2 returning 1', [userId, keep.sessionId ?? '']);
      return ended.length + (await grants.revokeCliLogins(userId, keep.cliGrantId));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
