import { Args } from '@oclif/core';
import type { CreatedOAuthClient } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { oauthClientRecord } from '../../access-views.js';

export default class OAuthClientsRegenerateSecret extends BaseCommand<typeof OAuthClientsRegenerateSecret> {
  static summary = 'Replace the secret of a confidential client (the old one stops working; issued tokens stay valid)';
  static examples = [
    '<%= config.bin %> oauth-clients regenerate-secret oac_0Ppq8sWb3c1Fz9Xk2Lm4',
  ];
  static args = { clientId: Args.string({ required: true, description: 'the client id (oac_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<CreatedOAuthClient> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('regenerateOAuthClientSecret', { params: { workspaceId, clientId: this.args.clientId } });
    if (!this.jsonEnabled()) printRecord(this.io, oauthClientRecord(data));
    this.info('This is the only time the new secret is shown: store it now.');
    return data;
  }
}
