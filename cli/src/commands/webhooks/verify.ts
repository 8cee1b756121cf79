import { Flags } from '@oclif/core';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { verifyWebhook } from '@hop/shared/webhook-signature';
import { BaseCommand } from '../../base-command.js';
import { EXIT } from '../../errors.js';
import { explainReason } from '../../event-stream/signature-check.js';

export default class WebhooksVerify extends BaseCommand<typeof WebhooksVerify> {
  static summary = 'Check a delivery signature: the raw body on stdin, the header values as flags';
  static description =
    'Prints "valid" and exits 0, or prints why not (stale timestamp, signature mismatch, ...) and exits 1. The check ' +
    'is verifyWebhook from @hop/shared: 30 s old at most, 5 s ahead at most, constant-time comparison.';
  static examples = [
    '<%= config.bin %> webhooks verify --secret "$HOP_WEBHOOK_SECRET" --timestamp 1767225600 --signature v1=5d41... < body.json',
  ];
  static flags = {
    secret: Flags.string({ required: true, env: 'HOP_WEBHOOK_SECRET', description: 'the webhook (or tail session) secret, whsec_...' }),
    timestamp: Flags.string({ required: true, description: `the ${WEBHOOK_HEADERS.timestamp} header` }),
    signature: Flags.string({ required: true, description: `the ${WEBHOOK_HEADERS.signature} header (v1=...; two during a rotation)` }),
  };

  async run(): Promise<{ valid: boolean; reason: string | null }> {
    const { secret, timestamp, signature } = this.flags;
    // The signature covers the exact bytes: read stdin untouched, no trimming of a final newline.
    if (this.io.stdinIsTTY) process.stderr.write('Reading the body from stdin (end with Ctrl-D)\n');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const result = verifyWebhook(secret, { [WEBHOOK_HEADERS.signature]: signature, [WEBHOOK_HEADERS.timestamp]: timestamp }, body);
    if (result.ok) {
      if (!this.jsonEnabled()) process.stdout.write('valid\n');
      return { valid: true, reason: null };
    }
    if (this.jsonEnabled()) this.logJson({ valid: false, reason: result.reason });
    else process.stderr.write(`Error: invalid signature: ${explainReason(result.reason, timestamp)} (${result.reason})\n`);
    return this.exit(EXIT.error);
  }
}
