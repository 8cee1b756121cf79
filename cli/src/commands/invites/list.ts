import type { Invite } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { inviteColumns } from '../../access-views.js';

export default class InvitesList extends BaseCommand<typeof InvitesList> {
  static summary = 'List pending invites (admins)';
  static examples = [
    '<%= config.bin %> invites list',
    '<%= config.bin %> invites list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<Invite[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listInvites', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, inviteColumns, 'No pending invites');
    return data;
  }
}
