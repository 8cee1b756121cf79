import { Args } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { workspaceFlag, yesFlag } from '../../flags.js';
import { askConfirm } from '../../prompts.js';

export default class LinksDelete extends BaseCommand<typeof LinksDelete> {
  static summary = 'Delete a link (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> links delete hello --yes',
    '<%= config.bin %> links delete lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --json --yes',
  ];
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<Link> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const linkId = await this.resolveLinkId(this.args.linkId, this.flags.workspace);
    if (!this.flags.yes) {
      // A script must say --yes: a deletion is never the default of an unattended run.
      if (!this.interactive) throw new UsageError('refusing to delete without --yes when not on a terminal');
      if (!(await askConfirm(`Delete ${linkId}? Its short URL stops working.`))) throw new UsageError('cancelled');
    }
    const { data } = await this.api.call('deleteLink', { params: { workspaceId, linkId } });
    this.info(`Deleted ${data.shortUrl} (${data.id})`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
