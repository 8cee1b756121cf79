import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { HopError } from '../errors.js';

/** Keys are honoured for 24 hours (docs/api.md, Links). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

export const hashRequest = (body: unknown) => createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');

/**
 * Runs a write once per (scope, key): a retry with the same body gets the first answer again; the
 * same key with another body is refused; a retry while the first is still running gets 409.
 * Server errors are not stored, so the client may retry them.
 */
export function createIdempotencyService(deps: { db: Database }) {
  const { db } = deps;

  return {
    async run(scope: string, key: string, body: unknown, execute: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }> {
      const requestHash = hashRequest(body);
      // Claim the key; a stale claim (older than the TTL) is taken over.
      const [claimed] = await db.query(
        `insert into idempotency_keys (scope, key, request_hash) values ($1, $2, $3)
         on conflict (scope, key) do update set request_hash = excluded.request_hash, status_code = null,
           response = null, created_at = now()
         where idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
         returning 1`,
        [scope, key, requestHash],
      );
      if (!claimed) {
        const [prior] = await db.query<{ request_hash: string; status_code: number | null; response: unknown }>(
          'select request_hash, status_code, response from idempotency_keys where scope = $1 and key = $2',
          [scope, key],
        );
        if (prior && prior.request_hash !== requestHash) {
          throw new HopError('VALIDATION_ERROR', 'this Idempotency-Key was used with another request body', {
            issues: [{ path: 'Idempotency-Key', message: 'reused with a different body' }],
          });
        }
        if (prior?.status_code == null) {
          throw new HopError('CONFLICT', 'a request with this Idempotency-Key is still in progress; retry shortly');
        }
        return { statusCode: prior.status_code, body: prior.response, replayed: true };
      }
      let result: StoredResponse;
      try {
        result = await execute();
      } catch (err) {
        // Nothing is stored for a refusal or a crash: the key is freed so a corrected or later retry runs.
        await db.query('delete from idempotency_keys where scope = $1 and key = $2', [scope, key]);
        throw err;
      }
      await db.query('update idempotency_keys set status_code = $3, response = $4 where scope = $1 and key = $2', [
        scope, key, result.statusCode, result.body,
      ]);
      return { ...result, replayed: false };
    },

    async purgeExpired(): Promise<number> {
      const rows = await db.query(`delete from idempotency_keys where created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' returning 1`);
      return rows.length;
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
