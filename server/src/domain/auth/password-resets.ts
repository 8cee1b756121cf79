import { createHash } from 'node:crypto';
import type { PasswordResetLink } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound, validationError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { iso } from '../timestamps.js';
import type { SendMail } from '../mail/mailer.js';
import { normaliseEmail } from '../users/account-email.js';

/** A reset link works once, for 30 minutes (docs/api.md, Accounts). */
export const RESET_TTL_MS = 30 * 60_000;
/** One mailed link per account a minute at most: the form cannot flood someone's mailbox. */
const MAIL_EVERY_MS = 60_000;
const TOKEN_PREFIX = 'hoppr_';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

export interface PasswordResetsOptions {
  db: Queryable;
  clock: Clock;
  /** The dashboard page a link opens, with the token in its fragment (never sent in a request line or Referer). */
  resetUrl: (token: string) => string;
  /** Unset without SMTP: then only an operator's link resets a password. */
  sendMail?: SendMail;
  onMailError?: (err: unknown) => void;
}

/** Password-reset links: mailed to the account's address, or handed out by the operator. */
export function createPasswordResets(opts: PasswordResetsOptions) {
  const { db, clock } = opts;

  async function issue(userId: string): Promise<{ url: string; expiresAt: Date }> {
    const token = TOKEN_PREFIX + randomBase62(43);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
    await db.query('insert into password_resets (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)', [hash(token), userId, now, expiresAt]);
    return { url: opts.resetUrl(token), expiresAt };
  }

  const unusable = () => validationError('token', 'is unknown, already used or expired (a reset link works once, for 30 minutes): ask for a new one');

  return {
    /**
     * Mails a link when `email` has an account and SMTP is set, and answers nothing either way:
     * the caller learns nothing about who has an account. Runs after the request has answered,
     * so its timing says nothing either.
     */
    request(email: string): void {
      const send = opts.sendMail;
      if (!send) return;
      void (async () => {
        const [user] = await db.query<{ id: string; email: string }>('select id, email from users where lower(email) = $1', [normaliseEmail(email)]);
        if (!user) return;
        const [recent] = await db.query('select 1 from password_resets where user_id = $1 and used_at is null and created_at > $2', [user.id, new Date(clock.now().getTime() - MAIL_EVERY_MS)]);
        if (recent) return;
        const link = await issue(user.id);
        await send({
          to: user.email,
          subject: 'Reset your Hop password',
          text: [
            'Someone (we hope you) asked to reset the password of your Hop account.',
            '',
            `Choose a new password here (the link works once, until ${iso(link.expiresAt)}):`,
            link.url,
            '',
            'Setting a new password signs you out everywhere. If you did not ask for this, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
        });
      })().catch((err) => opts.onMailError?.(err));
    },

    /** A one-time link for the user, for the operator to hand over. */
    async link(userId: string): Promise<PasswordResetLink> {
      const [user] = await db.query('select 1 from users where id = $1', [userId]);
      if (!user) throw notFound('user');
      const { url, expiresAt } = await issue(userId);
      return { userId, url, expiresAt: iso(expiresAt) };
    },

    /** The user a usable token resets, without using it up (a refused new password can be retried). */
    async peek(token: string): Promise<{ userId: string; email: string }> {
      const [row] = await db.query<{ user_id: string; email: string }>(
        `select r.user_id, u.email from password_resets r join users u on u.id = r.user_id
         where r.token_hash = $1 and r.used_at is null and r.expires_at > $2`,
        [hash(token), clock.now()],
      );
      if (!row) throw unusable();
      return { userId: row.user_id, email: row.email };
    },

    /** Uses the token up (of two racing uses, one wins) and every other link of its user. */
    async consume(q: Queryable, token: string): Promise<string> {
      const now = clock.now();
      const [row] = await q.query<{ user_id: string }>(
        'update password_resets set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id',
        [hash(token), now],
      );
      if (!row) throw unusable();
      await q.query('update password_resets set used_at = $2 where user_id = $1 and used_at is null', [row.user_id, now]);
      return row.user_id;
    },

    /** A changed password voids the links still out. */
    async voidFor(q: Queryable, userId: string): Promise<void> {
      await q.query('update password_resets set used_at = $2 where user_id = $1 and used_at is null', [userId, clock.now()]);
    },
  };
}

export type PasswordResets = ReturnType<typeof createPasswordResets>;
