import { Args } from '@oclif/core';
import type { OAuthClient } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class OAuthClientsDelete extends BaseCommand<typeof OAuthClientsDelete> {
  static summary = 'Delete an OAuth client; every token issued to it stops working (asks first on a terminal)';
  static examples = [
    '<%= config.bin %> oauth-clients delete oac_0Ppq8sWb3c1Fz9Xk2Lm4 --yes',
  ];
  static args = { clientId: Args.string({ required: true, description: 'the client id (oac_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<OAuthClient> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    await this.confirmOrStop(`Delete ${this.args.clientId} and revoke its tokens?`, this.flags.yes);
    const { data } = await this.api.call('deleteOAuthClient', { params: { workspaceId, clientId: this.args.clientId } });
    this.info(`Deleted ${data.name} (${data.clientId})`);
    return data;
  }
}
