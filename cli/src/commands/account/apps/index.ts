import type { OAuthGrant } from '@hop/shared';
import { BaseCommand } from '../../../base-command.js';
import { wideFlag } from '../../../flags.js';
import { grantColumns } from '../../../access-views.js';

export default class AccountApps extends BaseCommand<typeof AccountApps> {
  static summary = 'List connected apps: the OAuth grants you gave (the CLI\'s own logins included)';
  static description = 'Each grant shows the app, the workspaces it acts in, its scopes and when it was last used. Revoke one with `hop account apps revoke <id>`.';
  static examples = ['<%= config.bin %> account apps', '<%= config.bin %> account apps --json'];
  static flags = { wide: wideFlag() };

  async run(): Promise<OAuthGrant[]> {
    const { data } = await this.api.paginate('listOAuthGrants', { query: { limit: 100 } });
    await this.printList(data, grantColumns, 'No connected apps');
    return data;
  }
}
