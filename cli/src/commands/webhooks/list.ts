import type { Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printTable } from '../../render.js';
import { webhookColumns } from '../../webhook-views.js';

export default class WebhooksList extends BaseCommand<typeof WebhooksList> {
  static summary = 'List the webhooks of a workspace';
  static examples = [
    '<%= config.bin %> webhooks list',
    '<%= config.bin %> webhooks list --json',
  ];
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Webhook[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listWebhooks', { params: { workspaceId }, query: { limit: 100 } });
    if (!this.jsonEnabled()) await printTable(data, webhookColumns);
    if (!data.length) this.info('No webhooks');
    return data;
  }
}
