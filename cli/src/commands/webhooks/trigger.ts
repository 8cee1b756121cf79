import { Args, Flags } from '@oclif/core';
import { EVENT_TYPES, type EventType } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { reportSampleAnswer } from '../../webhook-views.js';

export default class WebhooksTrigger extends BaseCommand<typeof WebhooksTrigger> {
  static summary = 'Send a sample event of a type to one webhook, or to the live tail';
  static description =
    'The event carries "test": true and sample data of its type. With --webhook it is sent to that webhook at once and ' +
    'the endpoint\'s answer is shown (exits 1 when it did not answer 2xx); without, it goes to every `hop webhooks tail` ' +
    'listening to the workspace, and to no webhook.';
  static examples = [
    '<%= config.bin %> webhooks trigger link.clicked',
    '<%= config.bin %> webhooks trigger link.created --webhook wh_0Ppq8sWb3c1Fz9Xk2Lm4',
  ];
  static args = { eventType: Args.string({ required: true, options: [...EVENT_TYPES], description: 'the event type to send' }) };
  static flags = {
    workspace: workspaceFlag(),
    webhook: Flags.string({ helpValue: '<id>', description: 'send to this webhook (wh_...) instead of the live tail' }),
  };

  async run() {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('triggerEvent', {
      params: { workspaceId },
      body: { type: this.args.eventType as EventType, ...(this.flags.webhook ? { webhookId: this.flags.webhook } : {}) },
    });
    return reportSampleAnswer({ io: this.io, json: this.jsonEnabled(), logJson: (o) => this.logJson(o), exit: (c) => this.exit(c) }, data);
  }
}
