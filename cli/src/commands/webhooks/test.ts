import { Args, Flags } from '@oclif/core';
import { EVENT_TYPES, type EventType } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { EXIT } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';

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
    if (data.success) {
      if (!this.jsonEnabled()) printRecord(this.io, data);
      return data;
    }
    // A failed test is a failed command, but the answer is still what the caller asked for.
    if (this.jsonEnabled()) this.logJson(data);
    else printRecord(this.io, data);
    process.stderr.write(`Error: the endpoint answered ${data.statusCode ?? 'nothing'}${data.error ? `: ${data.error}` : ''}\n`);
    return this.exit(EXIT.error);
  }
}
