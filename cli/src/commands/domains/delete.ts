import { Args } from '@oclif/core';
import type { Domain } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { domainIdFor } from '../../domain-ref.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class DomainsDelete extends BaseCommand<typeof DomainsDelete> {
  static summary = 'Delete a custom domain (refused while links use it; asks first on a terminal)';
  /** The old verb still works, so scripts do not break. */
  static hiddenAliases = ['domains:remove'];
  static examples = ['<%= config.bin %> domains delete go.acme.com', '<%= config.bin %> domains delete dom_0Ppq8sWb3c1Fz9Xk2Lm4 --yes'];
  static args = { domain: Args.string({ required: true, description: 'domain name or id (dom_...)' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<Domain> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const domainId = await domainIdFor(this.api, workspaceId, this.args.domain);
    await this.confirmOrStop(`Delete ${this.args.domain}?`, this.flags.yes, 'remove');
    const { data } = await this.api.call('deleteDomain', { params: { workspaceId, domainId } });
    this.info(`Removed ${data.name} (${data.id})`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
