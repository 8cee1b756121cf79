import { Args } from '@oclif/core';
import type { Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class WebhooksDelete extends BaseCommand<typeof WebhooksDelete> {
  static summary = 'Delete a webhook (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> webhooks delete wh_0Ppq8sWb3c1Fz9Xk2Lm4 --yes',
  ];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<Webhook> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const webhookId = this.args.webhookId;
    await this.confirmOrStop(`Delete ${webhookId}? Its pending deliveries stop.`, this.flags.yes);
    const { data } = await this.api.call('deleteWebhook', { params: { workspaceId, webhookId } });
    this.info(`Deleted ${data.id} (${data.url})`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
