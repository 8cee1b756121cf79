import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { memoizeByString } from '../memo.js';
import type { Clock } from '../clock.js';
import type { WebhookRow } from './webhook-row.js';

/** `whsec_` + 32 random bytes in standard base64, as Standard Webhooks libraries decode it (docs/api.md, Events and webhooks). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhook secrets must be readable to sign with, so they are encrypted, not hashed: AES-256-GCM
 * with a key derived from HOP_SECRET. Stored as `v1.iv.tag.ciphertext` (base64url).
 */
export function createSecretBox(serverSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'hop', 'webhook-secrets', 32));
  // Every attempt signs with its webhook's secrets: a busy webhook's are opened once, not per delivery.
  const open = memoizeByString((sealed: string): string => {
    const [v, iv, tag, data] = sealed.split('.');
    if (v !== 'v1') throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }, 1000);
  return {
    open,
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

/** The secrets a webhook signs with now: the current one, and the previous one during a grace period. */
export function createSigningSecrets(box: SecretBox, clock: Clock) {
  return function signingSecrets(row: Pick<WebhookRow, 'secret' | 'previous_secret' | 'previous_secret_until'>): string[] {
    const secrets = [box.open(row.secret)];
    if (row.previous_secret && row.previous_secret_until && row.previous_secret_until.getTime() > clock.now().getTime()) {
      secrets.push(box.open(row.previous_secret));
    }
    return secrets;
  };
}
