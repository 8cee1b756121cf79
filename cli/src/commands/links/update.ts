import { Args, Flags } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { linkClearFlags, linkFieldFlags, workspaceFlag } from '../../flags.js';
import { linkBodyFromFlags } from '../../link-body.js';
import { printRecord } from '../../render.js';
import { linkRecord } from '../../resource-views.js';

export default class LinksUpdate extends BaseCommand<typeof LinksUpdate> {
  static summary = 'Change a link: set fields with the create flags, remove them with --clear-*';
  static examples = [
    '<%= config.bin %> links update lnk_... --url https://example.com/v2 --clear-expires',
    '<%= config.bin %> links update lnk_... --tag a --tag b --no-password',
  ];
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  static flags = {
    // Optional: the link's id already names its workspace.
    workspace: Flags.string({ char: 'w', helpValue: '<id|slug>', description: 'workspace id or slug (not needed with a link id: the link implies it)' }),
    url: Flags.string({ description: 'new destination URL' }),
    ...linkFieldFlags(),
    ...linkClearFlags(),
  };

  async run(): Promise<Link> {
    const body = linkBodyFromFlags(this.flags);
    if (!Object.keys(body).length) throw new UsageError('nothing to change: pass at least one field flag (see --help)');
    const linkId = await this.linkId(this.args.linkId, this.flags.workspace);
    const { data } = this.flags.workspace
      ? await this.api.call('updateLink', { params: { workspaceId: await this.workspaceId(this.flags.workspace), linkId }, body })
      : await this.api.call('updateLinkById', { params: { linkId }, body });
    if (!this.jsonEnabled()) printRecord(linkRecord(data));
    return data;
  }
}
