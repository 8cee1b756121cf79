import { Args } from '@oclif/core';
import type { Workspace } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';

export default class InvitesAccept extends BaseCommand<typeof InvitesAccept> {
  static summary = 'Join a workspace with an invite sent to your e-mail address';
  static examples = [
    '<%= config.bin %> invites accept hopinv_3q2Jx...',
  ];
  static description = 'Needs a login of your own (hop login), not an API key. The token is the one in the invite e-mail or the last part of its accept URL.';
  static args = { token: Args.string({ required: true, description: 'the invite token (hopinv_...) or its accept URL' }) };

  async run(): Promise<Workspace> {
    const given = this.args.token;
    // The dashboard's page (`{dashboard}/invites/{token}`) or the API's older accept path.
    const token = /\/invites\/([^/?#]+)(?:\/accept)?\/?(?:[?#].*)?$/.exec(given)?.[1] ?? given;
    const { data } = await this.api.call('acceptInvite', { params: { token: decodeURIComponent(token) } });
    this.info(`Joined ${data.name} (${data.slug}) as ${data.role}; switch to it with \`hop workspaces use ${data.slug}\``);
    return data;
  }
}
