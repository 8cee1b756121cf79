import type { OAuthClient } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { oauthClientColumns } from '../../access-views.js';

export default class OAuthClientsList extends BaseCommand<typeof OAuthClientsList> {
  static summary = 'List the OAuth clients registered by the workspace (never their secrets)';
  static examples = [
    '<%= config.bin %> oauth-clients list',
    '<%= config.bin %> oauth-clients list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<OAuthClient[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listOAuthClients', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, oauthClientColumns, 'No OAuth clients: register one with `hop oauth-clients create`');
    return data;
  }
}
