import type { Member } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { memberColumns } from '../../access-views.js';

export default class MembersList extends BaseCommand<typeof MembersList> {
  static summary = 'List the members of the workspace and their roles';
  static examples = [
    '<%= config.bin %> members list',
    '<%= config.bin %> members list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<Member[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listMembers', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, memberColumns, 'No members');
    return data;
  }
}
