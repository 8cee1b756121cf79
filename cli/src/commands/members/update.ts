import { Args, Flags } from '@oclif/core';
import { ROLES, type Member, type Role } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { memberIdFor } from '../../member-ref.js';

export default class MembersUpdate extends BaseCommand<typeof MembersUpdate> {
  static summary = "Change a member's role (owners only; the last owner cannot be demoted)";
  static examples = ['<%= config.bin %> members update ada@example.com --role admin'];
  static args = { member: Args.string({ required: true, description: 'user id (usr_...) or e-mail' }) };
  static flags = {
    workspace: workspaceFlag(),
    role: Flags.string({ required: true, options: [...ROLES], description: 'the new role' }),
  };

  async run(): Promise<Member> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const userId = await memberIdFor(this.api, workspaceId, this.args.member);
    const { data } = await this.api.call('updateMember', { params: { workspaceId, userId }, body: { role: this.flags.role as Role } });
    this.info(`${data.email} is now ${data.role}`);
    return data;
  }
}
