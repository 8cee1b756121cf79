import { Args } from '@oclif/core';
import type { Member } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag, yesFlag } from '../../flags.js';
import { memberIdFor } from '../../member-ref.js';

export default class MembersDelete extends BaseCommand<typeof MembersDelete> {
  static summary = 'Remove a member from the workspace (admins; owners for owners), or leave by naming yourself (asks first on a terminal)';
  /** One verb for every removal; the old one still works, so scripts do not break. */
  static hiddenAliases = ['members:remove'];
  static examples = ['<%= config.bin %> members delete ada@example.com', '<%= config.bin %> members delete usr_0Ppq8sWb3c1Fz9Xk2Lm4 --yes'];
  static args = { member: Args.string({ required: true, description: 'user id (usr_...) or e-mail' }) };
  static flags = { workspace: workspaceFlag(), yes: yesFlag() };

  async run(): Promise<Member> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const userId = await memberIdFor(this.api, workspaceId, this.args.member);
    await this.confirmOrStop(`Remove ${this.args.member} from the workspace?`, this.flags.yes, 'remove');
    const { data } = await this.api.call('deleteMember', { params: { workspaceId, userId } });
    this.info(`Removed ${data.email} (${data.role})`);
    return data;
  }
}
