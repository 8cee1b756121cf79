import { Args } from '@oclif/core';
import type { OAuthClient } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag, yesFlag } from '../../flags.js';
import { askConfirm } from '../../prompts.js';

export default class OAuthClientsDelete extends BaseCommand<typeof OAuthClientsDelete> {
  static summary = 'Delete an OAuth client; every token issued to it stops working (asks first on a terminal)';
  static examples = [
    '<%= config.bin %> oauth-clients delete oac_0Ppq8sWb3c1Fz9Xk2Lm4 --yes',
  ];
  static args = { clientId: Args.string({ required: true, description: 'the client id (oac_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<OAuthClient> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    if (!this.flags.yes) {
      if (!this.interactive) throw new UsageError('refusing to delete without --yes when not on a terminal');
      if (!(await askConfirm(`Delete ${this.args.clientId} and revoke its tokens?`))) throw new UsageError('cancelled');
    }
    const { data } = await this.api.call('deleteOAuthClient', { params: { workspaceId, clientId: this.args.clientId } });
    this.info(`Deleted ${data.name} (${data.clientId})`);
    return data;
  }
}
