import { Args } from '@oclif/core';
import type { Invite } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';

export default class InvitesRevoke extends BaseCommand<typeof InvitesRevoke> {
  static summary = 'Revoke a pending invite: its token stops working';
  static args = { inviteId: Args.string({ required: true, description: 'the invite id (inv_...)' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<Invite> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('revokeInvite', { params: { workspaceId, inviteId: this.args.inviteId } });
    this.info(`Revoked the invite of ${data.email}`);
    return data;
  }
}
