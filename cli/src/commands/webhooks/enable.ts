import { Args } from '@oclif/core';
import type { Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { webhookRecord } from '../../webhook-views.js';

export default class WebhooksEnable extends BaseCommand<typeof WebhooksEnable> {
  static summary = 'Re-enable a webhook disabled after repeated failures (resets its failure count)';
  static examples = [
    '<%= config.bin %> webhooks enable wh_0Ppq8sWb3c1Fz9Xk2Lm4',
  ];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Webhook> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('enableWebhook', { params: { workspaceId, webhookId: this.args.webhookId } });
    if (!this.jsonEnabled()) printRecord(this.io, webhookRecord(data));
    return data;
  }
}
