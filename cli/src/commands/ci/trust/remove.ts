import { Args } from '@oclif/core';
import type { CiTrust } from '@hop/shared';
import { BaseCommand } from '../../../base-command.js';
import { workspaceFlag, yesFlag } from '../../../flags.js';

export default class CiTrustRemove extends BaseCommand<typeof CiTrustRemove> {
  static summary = 'Remove a CI trust: its jobs exchange no more, and the tokens it gave stop working (asks first on a terminal)';
  static examples = ['<%= config.bin %> ci trust remove cit_0Ppq8sWb3c1Fz9Xk2Lm4', '<%= config.bin %> ci trust remove cit_0Ppq8sWb3c1Fz9Xk2Lm4 --yes --json'];
  static args = { trustId: Args.string({ required: true, description: 'the trust id (cit_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<CiTrust> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    await this.confirmOrStop(`Remove ${this.args.trustId}? Its jobs lose access at once.`, this.flags.yes, 'remove');
    const { data } = await this.api.call('deleteCiTrust', { params: { workspaceId, trustId: this.args.trustId } });
    this.info(`Removed the trust of ${data.repository} (${data.id})`);
    return data;
  }
}
