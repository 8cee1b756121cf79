import { Args, Flags } from '@oclif/core';
import type { Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { linkClearFlags, linkFieldFlags, workspaceFlag } from '../../flags.js';
import { withScheme, linkBodyFromFlags } from '../../link-body.js';
import { smartBodyFromFlags, smartClearFlags, smartLinkFlags } from '../../smart-link-flags.js';
import { printRecord } from '../../render.js';
import { newPassword } from '../../prompts.js';
import { linkRecord } from '../../resource-views.js';

export default class LinksUpdate extends BaseCommand<typeof LinksUpdate> {
  static summary = 'Change a link: set fields with the create flags, remove them with --clear-*';
  static examples = [
    '<%= config.bin %> links update launch --url https://example.com/v2 --clear-expires',
    '<%= config.bin %> links update hello --tag a --tag b --no-password   # the tags become exactly a, b',
    '<%= config.bin %> links update hello --add-tag q4 --remove-tag draft',
  ];
  static args = { linkId: Args.string({ required: true, description: 'link id (lnk_...) or slug' }) };
  // Drawn from the flags, the usage would run to a dozen lines with empty `|  |` groups.
  static usage = ['links update LINKID [flags]'];
  static flags = {
    // Optional: the link's id already names its workspace.
    workspace: Flags.string({ char: 'w', helpValue: '<id|slug>', description: 'workspace id or slug (not needed with a link id: the link implies it)' }),
    url: Flags.string({ description: 'new destination URL' }),
    ...linkFieldFlags(),
    tag: Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, description: 'replace every tag with these; repeat for several (to add or remove one: --add-tag, --remove-tag)' }),
    'add-tag': Flags.string({ multiple: true, exclusive: ['tag', 'clear-tags'], description: 'add this tag, keeping the others; repeat for several' }),
    'remove-tag': Flags.string({ multiple: true, exclusive: ['tag', 'clear-tags'], description: 'remove this tag, keeping the others; repeat for several' }),
    ...linkClearFlags(),
    ...smartLinkFlags(),
    ...smartClearFlags(),
  };

  async run(): Promise<Link> {
    const body = withScheme({ ...linkBodyFromFlags(this.flags), ...smartBodyFromFlags(this.flags) }, (m) => this.io.err(`${m}\n`));
    if (this.flags['password-stdin']) body.password = await newPassword('link password', this.io);
    const linkId = await this.resolveLinkId(this.args.linkId, this.flags.workspace);
    if (this.flags['add-tag'] || this.flags['remove-tag']) body.tags = await this.editedTags(linkId);
    if (!Object.keys(body).length) throw new UsageError('nothing to change: pass at least one field flag (see --help)');
    const { data } = this.flags.workspace
      ? await this.api.call('updateLink', { params: { workspaceId: await this.workspaceId(this.flags.workspace), linkId }, body })
      : await this.api.call('updateLinkById', { params: { linkId }, body });
    if (!this.jsonEnabled()) printRecord(this.io, linkRecord(data));
    return data;
  }

  /** The link's tags with --add-tag added and --remove-tag removed (read from the link first). */
  private async editedTags(linkId: string): Promise<string[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('getLink', { params: { workspaceId, linkId } });
    const removed = new Set(this.flags['remove-tag'] ?? []);
    return [...new Set([...data.tags, ...(this.flags['add-tag'] ?? [])])].filter((t) => !removed.has(t));
  }
}
