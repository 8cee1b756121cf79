import type { SignupMode } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import { HopError } from '../errors.js';

const FIRST_ACCOUNT_LOCK = 'hop:first-account';

/**
 * Who may create an account (HOP_SIGNUP, docs/api.md, Self-hosting): anyone (`open`), someone
 * holding a workspace invite (`invite`), or no one (`closed`). The first account of a server may
 * always be created, so a fresh server with sign-up closed can still get its operator.
 */
export function createSignupPolicy(deps: { db: Queryable; mode: SignupMode }) {
  const { db, mode } = deps;
  // Accounts are not deleted wholesale: once one exists, asking again is a waste.
  let someAccount = false;
  async function hasAccount(q: Queryable): Promise<boolean> {
    if (someAccount) return true;
    const [row] = await q.query<{ any: boolean }>('select exists (select 1 from users) as any');
    someAccount = row.any;
    return someAccount;
  }

  return {
    /** Who may sign up now (GET /v1/server): anyone while the server has no account yet. */
    async current(): Promise<SignupMode> {
      if (mode === 'open') return 'open';
      return (await hasAccount(db)) ? mode : 'open';
    },

    /**
     * Refuses a sign-up the setting does not allow, inside the transaction that creates the
     * account. An invite sign-up passes here: the invite itself is checked when it is claimed, in
     * the same transaction. The first-account exemption takes a lock, so two sign-ups racing on a
     * fresh server cannot both be the first.
     */
    async check(tx: Queryable, inviteToken: string | undefined): Promise<void> {
      if (mode === 'open' || (mode === 'invite' && inviteToken)) return;
      await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [FIRST_ACCOUNT_LOCK]);
      if (!(await hasAccount(tx))) return;
      throw mode === 'closed'
        ? new HopError('SIGNUP_CLOSED', 'sign-up is closed on this server: ask its operator to create your account', { signup: mode })
        : new HopError('SIGNUP_CLOSED', 'this server takes sign-ups by invite only: ask a workspace admin to invite you, then sign up from the invite (inviteToken)', { signup: mode });
    },
  };
}

export type SignupPolicy = ReturnType<typeof createSignupPolicy>;
