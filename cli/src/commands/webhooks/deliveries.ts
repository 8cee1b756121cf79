import { Args, Flags } from '@oclif/core';
import type { Delivery } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { deliveryColumns } from '../../webhook-views.js';

export default class WebhooksDeliveries extends BaseCommand<typeof WebhooksDeliveries> {
  static summary = 'The delivery log of a webhook, newest first';
  static description = 'Each delivery keeps one id across its attempts and manual retries. Logs are kept 30 days.';
  static examples = ['<%= config.bin %> webhooks deliveries wh_0Ppq8sWb3c1Fz9Xk2Lm4 --status failed', '<%= config.bin %> webhooks deliveries wh_0Ppq8sWb3c1Fz9Xk2Lm4 --json'];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = {
    workspace: workspaceFlag(),
    wide: wideFlag(),
    limit: Flags.integer({ min: 1, max: 100, description: 'deliveries per page (1-100, default 20)' }),
    status: Flags.string({ options: ['pending', 'succeeded', 'failed'], description: 'only deliveries in this state (failed: exhausted)' }),
    cursor: Flags.string({ description: 'the page after this cursor (printed on stderr after a page)' }),
  };

  async run(): Promise<Delivery[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { limit, status, cursor } = this.flags;
    const page = await this.api.call('listDeliveries', {
      params: { workspaceId, webhookId: this.args.webhookId },
      query: { limit, status: status as Delivery['status'] | undefined, cursor },
    });
    const next = page.pagination.nextCursor;
    await this.printList(page.data, deliveryColumns, 'No deliveries');
    if (next) process.stderr.write(`More deliveries: add --cursor ${next}\n`);
    return page.data;
  }
}
