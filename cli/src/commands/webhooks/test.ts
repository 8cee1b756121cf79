import { Args, Flags } from '@oclif/core';
import { EVENT_TYPES, type EventType } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { reportSampleAnswer } from '../../webhook-views.js';

export default class WebhooksTest extends BaseCommand<typeof WebhooksTest> {
  static summary = "Send a sample event now and show the endpoint's answer";
  static description = 'The event carries "test": true and sample data. Exits 1 when the endpoint did not answer 2xx.';
  static examples = ['<%= config.bin %> webhooks test wh_0Ppq8sWb3c1Fz9Xk2Lm4 --type link.clicked'];
  static args = { webhookId: Args.string({ required: true, description: 'webhook id (wh_...)' }) };
  static flags = {
    workspace: workspaceFlag(),
    type: Flags.string({ options: [...EVENT_TYPES], description: 'event type to send (default link.created)' }),
  };

  async run() {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('testWebhook', {
      params: { workspaceId, webhookId: this.args.webhookId },
      body: this.flags.type ? { type: this.flags.type as EventType } : {},
    });
    return reportSampleAnswer({ io: this.io, json: this.jsonEnabled(), logJson: (o) => this.logJson(o), exit: (c) => this.exit(c) }, data);
  }
}
