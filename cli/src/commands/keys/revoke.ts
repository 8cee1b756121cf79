import { Args } from '@oclif/core';
import type { ApiKey } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag, yesFlag } from '../../flags.js';
import { askConfirm } from '../../prompts.js';

export default class KeysRevoke extends BaseCommand<typeof KeysRevoke> {
  static summary = 'Revoke an API key: it stops working at once (asks first on a terminal)';
  static args = { keyId: Args.string({ required: true, description: 'the key id (key_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<ApiKey> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    if (!this.flags.yes) {
      if (!this.interactive) throw new UsageError('refusing to revoke without --yes when not on a terminal');
      if (!(await askConfirm(`Revoke ${this.args.keyId}?`))) throw new UsageError('cancelled');
    }
    const { data } = await this.api.call('deleteApiKey', { params: { workspaceId, keyId: this.args.keyId } });
    this.info(`Revoked ${data.name} (${data.id})`);
    return data;
  }
}
