import type { TagSummary } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { tagColumns } from '../../resource-views.js';

export default class TagsList extends BaseCommand<typeof TagsList> {
  static summary = 'List the tags in use, with how many links carry each';
  static examples = [
    '<%= config.bin %> tags list',
    '<%= config.bin %> tags list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<TagSummary[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listTags', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, tagColumns, 'No tags: add one to a link with `hop links update <slug> --tag <tag>`');
    return data;
  }
}
