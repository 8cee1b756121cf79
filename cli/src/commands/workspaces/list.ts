import type { Workspace } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag } from '../../flags.js';
import { workspaceColumns } from '../../resource-views.js';

export default class WorkspacesList extends BaseCommand<typeof WorkspacesList> {
  static summary = 'List the workspaces you can access (* marks the default)';
  static examples = [
    '<%= config.bin %> workspaces list',
    '<%= config.bin %> workspaces list --json',
  ];

  static flags = { wide: wideFlag() };

  async run(): Promise<Workspace[]> {
    const { data } = await this.api.paginate('listWorkspaces', { query: { limit: 100 } });
    await this.printList(data, workspaceColumns(this.settings.workspace), 'No workspaces: create one with `hop workspaces create --name <name> --use`');
    return data;
  }
}
