import { Args } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { linkRecord } from '../../resource-views.js';

export default class LinksGet extends BaseCommand<typeof LinksGet> {
  static summary = 'Show one link';
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static examples = ['<%= config.bin %> links get hello', '<%= config.bin %> links get lnk_0Ppq8sWb3c1Fz9Xk2Lm4 --json'];
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Link> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const linkId = await this.resolveLinkId(this.args.linkId, this.flags.workspace);
    const { data } = await this.api.call('getLink', { params: { workspaceId, linkId } });
    if (!this.jsonEnabled()) printRecord(this.io, linkRecord(data));
    return data;
  }
}
