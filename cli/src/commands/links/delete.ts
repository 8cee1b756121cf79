import { Args } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class LinksDelete extends BaseCommand<typeof LinksDelete> {
  static summary = 'Delete a link (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> links delete hello --yes',
    '<%= config.bin %> links delete lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --yes --json',
  ];
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<Link> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const linkId = await this.resolveLinkId(this.args.linkId, this.flags.workspace);
    await this.confirmOrStop(async () => {
      const { data: link } = await this.api.call('getLink', { params: { workspaceId, linkId } });
      return `Delete the link "${link.slug}" (${link.shortUrl})? Its short URL stops working.`;
    }, this.flags.yes);
    const { data } = await this.api.call('deleteLink', { params: { workspaceId, linkId } });
    this.info(`Deleted ${data.shortUrl} (${data.id})`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.id}\n`);
    return data;
  }
}
