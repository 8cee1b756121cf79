import { Args, Flags } from '@oclif/core';
import type { EventType, UpdateWebhookBody, Webhook } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { eventFlag, webhookRecord } from '../../webhook-views.js';

export default class WebhooksUpdate extends BaseCommand<typeof WebhooksUpdate> {
  static summary = 'Change the URL, events, description or active state of a webhook';
  static description = '--event replaces the list of events. --no-active pauses deliveries; --active resumes them.';
  static examples = [
    '<%= config.bin %> webhooks update wh_0Ppq8sWb3c1Fz9Xk2Lm4 --event link.created --event link.deleted',
    '<%= config.bin %> webhooks update wh_0Ppq8sWb3c1Fz9Xk2Lm4 --no-active',
  ];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = {
    workspace: workspaceFlag(),
    url: Flags.string({ description: 'new URL' }),
    event: eventFlag(),
    description: Flags.string({ description: 'new description' }),
    'clear-description': Flags.boolean({ exclusive: ['description'], description: 'remove the description' }),
    active: Flags.boolean({ allowNo: true, description: 'resume (--active) or pause (--no-active) deliveries' }),
  };

  async run(): Promise<Webhook> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const f = this.flags;
    const body: UpdateWebhookBody = {
      ...(f.url !== undefined && { url: f.url }),
      ...(f.event && { events: f.event as EventType[] }),
      ...(f.description !== undefined && { description: f.description }),
      ...(f['clear-description'] && { description: null }),
      ...(f.active !== undefined && { isActive: f.active }),
    };
    if (!Object.keys(body).length) throw new UsageError('nothing to change: pass --url, --event, --description or --active/--no-active');
    const { data } = await this.api.call('updateWebhook', { params: { workspaceId, webhookId: this.args.webhookId }, body });
    if (!this.jsonEnabled()) printRecord(this.io, webhookRecord(data));
    return data;
  }
}
