import type { ApiKey } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { apiKeyColumns } from '../../access-views.js';

export default class KeysList extends BaseCommand<typeof KeysList> {
  static summary = 'List API keys (admins see every key of the workspace, others their own); never the keys themselves';
  static examples = [
    '<%= config.bin %> keys list',
    '<%= config.bin %> keys list --workspace acme --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<ApiKey[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listApiKeys', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, apiKeyColumns, 'No API keys: create one with `hop keys create --name <name> --scope <scope>`');
    return data;
  }
}
