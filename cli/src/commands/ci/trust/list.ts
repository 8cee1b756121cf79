import type { CiTrust } from '@hop/shared';
import { BaseCommand } from '../../../base-command.js';
import { wideFlag, workspaceFlag } from '../../../flags.js';
import { ciTrustColumns } from '../../../access-views.js';

export default class CiTrustList extends BaseCommand<typeof CiTrustList> {
  static summary = 'List the CI trusts of the workspace, with when each was last used';
  static examples = ['<%= config.bin %> ci trust list', '<%= config.bin %> ci trust list --workspace acme --json'];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<CiTrust[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listCiTrusts', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, ciTrustColumns, 'No CI trusts: add one with `hop ci trust add --repository <owner/name> --scope <scope>`');
    return data;
  }
}
