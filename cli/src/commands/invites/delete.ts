import { Args } from '@oclif/core';
import type { Invite } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';

export default class InvitesDelete extends BaseCommand<typeof InvitesDelete> {
  static summary = 'Delete (revoke) a pending invite: its token stops working';
  /** The old verb still works, so scripts do not break. */
  static hiddenAliases = ['invites:revoke'];
  static examples = ['<%= config.bin %> invites delete inv_0Ppq8sWb3c1Fz9Xk2Lm4'];
  static args = { inviteId: Args.string({ required: true, description: 'the invite id (inv_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Invite> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('deleteInvite', { params: { workspaceId, inviteId: this.args.inviteId } });
    this.info(`Deleted the invite of ${data.email}`);
    return data;
  }
}
