import { Args, Flags } from '@oclif/core';
import { ROLES, type CreatedInvite, type Role } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';

export default class InvitesCreate extends BaseCommand<typeof InvitesCreate> {
  static summary = 'Invite someone by e-mail (admins invite members and admins; owners also owners)';
  static description = 'The invite lasts 7 days. When the server has SMTP configured, the e-mail goes out; the token and accept URL are printed once either way, to pass on by hand.';
  static examples = ['<%= config.bin %> invites create ada@example.com --role member'];
  static args = { email: Args.string({ required: true, description: 'e-mail address of the person to invite' }) };
  static flags = {
    workspace: workspaceFlag(),
    role: Flags.string({ options: [...ROLES], default: 'member', description: 'the role they join with' }),
  };

  async run(): Promise<CreatedInvite> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.call('createInvite', { params: { workspaceId }, body: { email: this.args.email, role: this.flags.role as Role } });
    if (!this.jsonEnabled()) printRecord(this.io, { id: data.id, email: data.email, role: data.role, expiresAt: data.expiresAt, token: data.token, acceptUrl: data.acceptUrl });
    this.info(`They accept with \`hop invites accept ${data.token}\` once logged in as ${data.email}`);
    return data;
  }
}
