import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { graceFlag } from '../../webhook-views.js';

export default class WebhooksRotateSecret extends BaseCommand<typeof WebhooksRotateSecret> {
  static summary = 'Issue a new signing secret; prints it, shown only this once';
  static description =
    'With --grace, deliveries carry two signatures (old and new secret) until the grace period ends, so receivers can ' +
    'switch without dropping events. Piped or captured, stdout holds only the new secret.';
  static examples = ['<%= config.bin %> webhooks rotate-secret wh_0Ppq8sWb3c1Fz9Xk2Lm4 --grace 1h', 'SECRET=$(<%= config.bin %> webhooks rotate-secret wh_0Ppq8sWb3c1Fz9Xk2Lm4)'];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = {
    workspace: workspaceFlag(),
    grace: graceFlag({ description: 'keep signing with the old secret too for this long: seconds or 30m, 1h, 1d (at most a day)' }),
  };

  async run(): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const grace = this.flags.grace;
    const { data } = await this.api.call('rotateWebhookSecret', {
      params: { workspaceId, webhookId: this.args.webhookId },
      body: grace !== undefined ? { graceSeconds: grace } : {},
    });
    this.showSecretOnce(data, data.secret);
    this.info(data.previousSecretExpiresAt ? `The old secret also signs until ${data.previousSecretExpiresAt}.` : 'The old secret no longer signs.');
    return data;
  }
}
