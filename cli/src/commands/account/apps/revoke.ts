import { Args } from '@oclif/core';
import type { OAuthGrant } from '@hop/shared';
import { BaseCommand } from '../../../base-command.js';
import { yesFlag } from '../../../flags.js';

export default class AccountAppsRevoke extends BaseCommand<typeof AccountAppsRevoke> {
  static summary = 'Revoke a connected app: its tokens stop working at once (asks first on a terminal)';
  static examples = ['<%= config.bin %> account apps revoke oag_0Ppq8sWb3c1Fz9Xk2Lm4', '<%= config.bin %> account apps revoke oag_0Ppq8sWb3c1Fz9Xk2Lm4 --yes --json'];
  static args = { grantId: Args.string({ required: true, description: 'the grant id (oag_..., from `hop account apps`)' }) };
  static flags = { yes: yesFlag() };

  async run(): Promise<OAuthGrant> {
    await this.confirmOrStop(`Revoke ${this.args.grantId}? Its tokens stop working at once.`, this.flags.yes, 'revoke');
    const { data } = await this.api.call('deleteOAuthGrant', { params: { grantId: this.args.grantId } });
    this.info(`Revoked ${data.clientName} (${data.id})`);
    return data;
  }
}
