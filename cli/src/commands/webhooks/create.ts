import { randomUUID } from 'node:crypto';
import { Flags } from '@oclif/core';
import type { CreatedWebhook, EventType } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { eventFlag, webhookRecord } from '../../webhook-views.js';

export default class WebhooksCreate extends BaseCommand<typeof WebhooksCreate> {
  static summary = 'Send events to a URL; prints the signing secret, shown only this once';
  static description = 'Piped or captured, stdout holds only the secret. Webhooks need the Pro plan.';
  static examples = [
    '<%= config.bin %> webhooks create --url https://example.com/hooks --event link.created --event link.clicked',
    'SECRET=$(<%= config.bin %> webhooks create --url https://example.com/hooks --event link.created)',
  ];
  static flags = {
    workspace: workspaceFlag(),
    url: Flags.string({ required: true, description: 'where to POST events (https; http only on a server allowing private URLs)' }),
    event: eventFlag(true),
    description: Flags.string({ description: 'a note for people (at most 500 characters)' }),
  };

  async run(): Promise<CreatedWebhook> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { url, event, description } = this.flags;
    const { data } = await this.api.call('createWebhook', {
      params: { workspaceId },
      body: { url, events: event as EventType[], description },
      idempotencyKey: randomUUID(),
    });
    this.showSecretOnce({ ...webhookRecord(data), secret: data.secret }, data.secret);
    this.info(`Created ${data.id}. Keep the secret: it is not shown again (\`hop webhooks rotate-secret\` issues a new one).`);
    return data;
  }
}
