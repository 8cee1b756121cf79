import type { Invite } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printTable } from '../../render.js';
import { inviteColumns } from '../../access-views.js';

export default class InvitesList extends BaseCommand<typeof InvitesList> {
  static summary = 'List pending invites (admins)';
  static examples = [
    '<%= config.bin %> invites list',
    '<%= config.bin %> invites list --json',
  ];
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Invite[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listInvites', { params: { workspaceId }, query: { limit: 100 } });
    if (!this.jsonEnabled()) await printTable(data, inviteColumns);
    if (!data.length) this.info('No pending invites');
    return data;
  }
}
