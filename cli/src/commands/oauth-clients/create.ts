import { Flags } from '@oclif/core';
import type { CreatedOAuthClient } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { printRecord } from '../../render.js';
import { oauthClientRecord } from '../../access-views.js';

export default class OAuthClientsCreate extends BaseCommand<typeof OAuthClientsCreate> {
  static summary = 'Register an OAuth client; a confidential one gets a secret, printed once';
  static description = 'Redirect URIs must match exactly, except http loopback ones (127.0.0.1, [::1], localhost), where any port matches. Third-party clients can never be granted keys:manage.';
  static examples = [
    '<%= config.bin %> oauth-clients create --name Zapier --redirect-uri https://zapier.com/dashboard/auth/oauth/return/App123CLIAPI/',
    '<%= config.bin %> oauth-clients create --name "My desktop app" --type public --redirect-uri http://127.0.0.1/callback',
  ];
  static flags = {
    workspace: workspaceFlag(),
    name: Flags.string({ required: true, description: 'shown to users on the consent page' }),
    type: Flags.string({ options: ['confidential', 'public'], default: 'confidential', description: 'confidential (a server, with a secret) or public (a native or browser app, PKCE only)' }),
    'redirect-uri': Flags.string({ required: true, multiple: true, description: 'an allowed redirect URI; repeat for several' }),
  };

  async run(): Promise<CreatedOAuthClient> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const body = { name: this.flags.name, type: this.flags.type as 'confidential' | 'public', redirectUris: this.flags['redirect-uri'] };
    const { data } = await this.api.call('createOAuthClient', { params: { workspaceId }, body });
    if (!this.jsonEnabled()) printRecord(this.io, oauthClientRecord(data));
    if (data.clientSecret) this.info('This is the only time the client secret is shown: store it now.');
    return data;
  }
}
