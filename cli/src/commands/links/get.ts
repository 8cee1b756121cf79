import { Args } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { linkRecord } from '../../resource-views.js';

export default class LinksGet extends BaseCommand<typeof LinksGet> {
  static summary = 'Show one link';
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Link> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('getLink', { params: { workspaceId, linkId: this.args.linkId } });
    if (!this.jsonEnabled()) printRecord(linkRecord(data));
    return data;
  }
}
