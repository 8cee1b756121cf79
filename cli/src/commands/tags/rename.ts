import { Args } from '@oclif/core';
import type { TagSummary } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';

export default class TagsRename extends BaseCommand<typeof TagsRename> {
  static summary = 'Rename a tag on every link (merges into the new name if links already have it)';
  static examples = ['<%= config.bin %> tags rename q4 q4-2026'];
  static args = {
    from: Args.string({ required: true, description: 'the tag to rename' }),
    to: Args.string({ required: true, description: 'its new name' }),
  };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<TagSummary> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('renameTag', { params: { workspaceId, name: this.args.from }, body: { name: this.args.to } });
    if (!this.jsonEnabled()) printRecord(this.io, data);
    this.info(`Renamed ${this.args.from.toLowerCase()} to ${data.name}: ${data.linkCount} link${data.linkCount === 1 ? '' : 's'} now carry it`);
    return data;
  }
}
