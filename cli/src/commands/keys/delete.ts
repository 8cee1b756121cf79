import { Args } from '@oclif/core';
import type { ApiKey } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class KeysDelete extends BaseCommand<typeof KeysDelete> {
  static summary = 'Delete (revoke) an API key: it stops working at once (asks first on a terminal)';
  /** The old verb still works, so scripts do not break. */
  static hiddenAliases = ['keys:revoke'];
  static examples = ['<%= config.bin %> keys delete key_0Ppq8sWb3c1Fz9Xk2Lm4', '<%= config.bin %> keys delete key_0Ppq8sWb3c1Fz9Xk2Lm4 --yes --json'];
  static args = { keyId: Args.string({ required: true, description: 'the key id (key_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<ApiKey> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    await this.confirmOrStop(`Delete ${this.args.keyId}? It stops working at once.`, this.flags.yes);
    const { data } = await this.api.call('deleteApiKey', { params: { workspaceId, keyId: this.args.keyId } });
    this.info(`Deleted ${data.name} (${data.id})`);
    return data;
  }
}
