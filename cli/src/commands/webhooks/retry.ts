import { Args } from '@oclif/core';
import type { Delivery } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { deliveryRecord } from '../../webhook-views.js';

export default class WebhooksRetry extends BaseCommand<typeof WebhooksRetry> {
  static summary = 'Send a finished delivery again, with the same delivery id';
  static examples = [
    '<%= config.bin %> webhooks retry wh_0Ppq8sWb3c1Fz9Xk2Lm4 dlv_0Ppq8sWb3c1Fz9Xk2Lm4',
  ];
  static description = 'The attempt is queued at once; see its outcome with `hop webhooks deliveries`.';
  static args = {
    webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }),
    deliveryId: Args.string({ required: true, description: 'delivery id (dlv_...)' }),
  };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Delivery> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { webhookId, deliveryId } = this.args;
    const { data } = await this.api.call('retryDelivery', { params: { workspaceId, webhookId, deliveryId } });
    if (!this.jsonEnabled()) printRecord(this.io, deliveryRecord(data));
    this.info(`Queued ${data.id} for another attempt`);
    return data;
  }
}
