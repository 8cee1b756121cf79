import { Args } from '@oclif/core';
import type { Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { webhookRecord } from '../../webhook-views.js';

export default class WebhooksGet extends BaseCommand<typeof WebhooksGet> {
  static summary = 'Show one webhook (its secret is never shown again: rotate it if lost)';
  static examples = [
    '<%= config.bin %> webhooks get wh_0Ppq8sWb3c1Fz9Xk2Lm4',
    '<%= config.bin %> webhooks get wh_0Ppq8sWb3c1Fz9Xk2Lm4 --json',
  ];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Webhook> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('getWebhook', { params: { workspaceId, webhookId: this.args.webhookId } });
    if (!this.jsonEnabled()) printRecord(this.io, webhookRecord(data));
    return data;
  }
}
