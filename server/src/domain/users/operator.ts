import type { Queryable } from '../../db/database.js';
import { HopError } from '../errors.js';

/**
 * Who the server's operator is: its first account (docs/api.md, Accounts), the oldest row of
 * `users`. It may change any workspace's plan and hand out password-reset links without the
 * admin token. Accounts are never deleted, so once found the answer never changes and is kept.
 */
export function createOperator(deps: { db: Queryable }) {
  let operatorId: string | undefined;

  async function find(): Promise<string | undefined> {
    if (operatorId) return operatorId;
    const [row] = await deps.db.query<{ id: string }>('select id from users order by created_at, id limit 1');
    operatorId = row?.id;
    return operatorId;
  }

  return {
    async is(userId: string): Promise<boolean> {
      return (await find()) === userId;
    },

    async require(userId: string): Promise<void> {
      if (!(await this.is(userId))) {
        throw new HopError('FORBIDDEN', "only the server's operator (its first account) or the X-Admin-Token may do this", { requiredCredential: 'operator' });
      }
    },
  };
}

export type Operator = ReturnType<typeof createOperator>;
