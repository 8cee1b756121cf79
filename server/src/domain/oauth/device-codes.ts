import { createHash, randomInt } from 'node:crypto';
import type { OAuthTokenResponse, Scope } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { randomBase62 } from '../ids.js';
import type { RegisteredClient } from './oauth-clients-service.js';
import { OAuthError } from './oauth-errors.js';
import { parseScopes, type OAuthService } from './oauth-service.js';
import { SCOPES } from '@hop/shared';

/** docs/cli.md: a device code lives 10 minutes; the device polls every 5 seconds. */
export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/** RFC 8628 6.1: consonants only (no vowels, so no words; no look-alikes), 8 of them: 20^8 ≈ 2.6e10. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** `bcdf-ghjk`, `BCDFGHJK` or ` bcdf ghjk ` as typed → `BCDFGHJK`; anything else → null. */
export function normaliseUserCode(input: string | undefined): string | null {
  const code = (input ?? '').toUpperCase().replace(/[\s-]/g, '');
  return code.length === 8 && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

/** `BCDFGHJK` → `BCDF-GHJK`, how people read it. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export interface PendingDeviceCode {
  userCode: string;
  clientId: string;
  scopes: Scope[];
}

interface DeviceRow {
  device_code_hash: string;
  user_code: string;
  client_id: string;
  scopes: Scope[];
  status: 'pending' | 'approved' | 'denied' | 'used';
  grant_id: string | null;
  interval_seconds: number;
  last_polled_at: Date | null;
  expires_at: Date;
}

/**
 * The device authorization grant (RFC 8628): a device asks for codes, the user approves the user
 * code on a page signed in to Hop, the device polls the token endpoint until then.
 */
export function createDeviceCodes(deps: { db: Database; clock: Clock; oauth: OAuthService }) {
  const { db, clock, oauth } = deps;
  const now = () => clock.now();

  return {
    /** POST /v1/oauth/device/code: fresh codes for `client` and the scopes it asks for (all, for the CLI). */
    async start(client: RegisteredClient, scope: string | undefined) {
      const scopes = parseScopes(client, scope, client.firstParty ? SCOPES : null);
      const deviceCode = `hopdc_${randomBase62(43)}`;
      const userCode = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
      const expiresAt = new Date(now().getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
      // Codes that ended a day ago are of no use to anyone: clear them as new ones are made.
      await db.query('delete from oauth_device_codes where expires_at < $1', [new Date(now().getTime() - 86_400_000)]);
      await db.query(
        `insert into oauth_device_codes (device_code_hash, user_code, client_id, scopes, interval_seconds, expires_at)
         values ($1, $2, $3, $4::text[], $5, $6)`,
        [hash(deviceCode), userCode, client.id, scopes, DEVICE_POLL_INTERVAL_SECONDS, expiresAt],
      );
      return { deviceCode, userCode: formatUserCode(userCode), expiresIn: DEVICE_CODE_TTL_SECONDS, interval: DEVICE_POLL_INTERVAL_SECONDS };
    },

    /** The pending, unexpired request behind a user code as typed; null otherwise. */
    async pending(input: string | undefined): Promise<PendingDeviceCode | null> {
      const userCode = normaliseUserCode(input);
      if (!userCode) return null;
      const [row] = await db.query<DeviceRow>(
        `select * from oauth_device_codes where user_code = $1 and status = 'pending' and expires_at > $2`, [userCode, now()]);
      return row ? { userCode, clientId: row.client_id, scopes: row.scopes } : null;
    },

    /** The user approved: a grant (see OAuthService.createGrant); false when the code or workspace is not valid. */
    async approve(userCode: string, userId: string, workspaceId: string | null): Promise<boolean> {
      const [pending] = await db.query<DeviceRow>(`select client_id from oauth_device_codes where user_code = $1`, [userCode]);
      if (!pending || !(await oauth.grantAllowed(pending.client_id, userId, workspaceId))) return false;
      return db.transaction(async (tx) => {
        const [row] = await tx.query<DeviceRow>(
          `select * from oauth_device_codes where user_code = $1 and status = 'pending' and expires_at > $2 for update`, [userCode, now()]);
        if (!row) return false;
        const grantId = await oauth.createGrant(tx, { clientId: row.client_id, userId, workspaceId, scopes: row.scopes });
        await tx.query(`update oauth_device_codes set status = 'approved', grant_id = $2 where user_code = $1`, [userCode, grantId]);
        return true;
      });
    },

    async deny(userCode: string): Promise<void> {
      await db.query(`update oauth_device_codes set status = 'denied' where user_code = $1 and status = 'pending'`, [userCode]);
    },

    /** grant_type=device_code (RFC 8628 3.4, 3.5): pending, slow down, denied, expired, or the tokens, once. */
    async exchange(client: RegisteredClient, deviceCode: string | undefined): Promise<OAuthTokenResponse> {
      if (!deviceCode) throw new OAuthError('invalid_request', 'device_code is required');
      // The poll is recorded (committed) before a pending answer is thrown: the transaction returns it.
      const outcome = await db.transaction(async (tx): Promise<OAuthTokenResponse | OAuthError> => {
        const [row] = await tx.query<DeviceRow>('select * from oauth_device_codes where device_code_hash = $1 for update', [hash(deviceCode)]);
        if (!row || row.client_id !== client.id) return new OAuthError('invalid_grant', 'the device code is unknown');
        const at = now();
        if (row.status === 'used') return new OAuthError('invalid_grant', 'the device code was already exchanged');
        if (row.status === 'denied') return new OAuthError('access_denied', 'the user denied the request');
        if (row.status === 'approved') {
          await tx.query(`update oauth_device_codes set status = 'used' where device_code_hash = $1`, [row.device_code_hash]);
          return oauth.issueForGrant(tx, row.grant_id!);
        }
        if (row.expires_at.getTime() <= at.getTime()) return new OAuthError('expired_token', 'the device code expired (codes live 10 minutes)');
        const tooSoon = row.last_polled_at !== null && at.getTime() - row.last_polled_at.getTime() < row.interval_seconds * 1000;
        await tx.query('update oauth_device_codes set last_polled_at = $2, interval_seconds = interval_seconds + $3 where device_code_hash = $1',
          [row.device_code_hash, at, tooSoon ? 5 : 0]);
        // A device that polls faster than the interval is told to slow down, and its interval grows by 5 s.
        if (tooSoon) return new OAuthError('slow_down', `poll at most every ${row.interval_seconds + 5} seconds`);
        return new OAuthError('authorization_pending', 'the user has not approved the request yet');
      });
      if (outcome instanceof OAuthError) throw outcome;
      return outcome;
    },
  };
}

export type DeviceCodes = ReturnType<typeof createDeviceCodes>;
