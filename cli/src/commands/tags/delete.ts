import { Args } from '@oclif/core';
import type { TagSummary } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';

export default class TagsDelete extends BaseCommand<typeof TagsDelete> {
  static summary = 'Remove a tag from every link (asks first on a terminal; --yes otherwise)';
  static examples = [
    '<%= config.bin %> tags delete old-campaign --yes',
  ];
  static args = { name: Args.string({ required: true, description: 'the tag' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<TagSummary> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    await this.confirmOrStop(`Remove the tag ${this.args.name} from every link?`, this.flags.yes);
    const { data } = await this.api.call('deleteTag', { params: { workspaceId, name: this.args.name } });
    this.info(`Removed ${data.name} from ${data.linkCount} link${data.linkCount === 1 ? '' : 's'}`);
    if (!this.jsonEnabled() && !this.io.stdoutIsTTY) this.io.out(`${data.name}\n`);
    return data;
  }
}
