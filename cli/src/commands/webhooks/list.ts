import type { Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { webhookColumns } from '../../webhook-views.js';

export default class WebhooksList extends BaseCommand<typeof WebhooksList> {
  static summary = 'List the webhooks of a workspace';
  static examples = [
    '<%= config.bin %> webhooks list',
    '<%= config.bin %> webhooks list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<Webhook[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listWebhooks', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, webhookColumns, 'No webhooks: create one with `hop webhooks create --url <url> --event <type>`');
    return data;
  }
}
