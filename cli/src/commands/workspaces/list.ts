import type { Workspace } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { printTable } from '../../render.js';
import { workspaceColumns } from '../../resource-views.js';

export default class WorkspacesList extends BaseCommand<typeof WorkspacesList> {
  static summary = 'List the workspaces you can access (* marks the default)';
  static examples = [
    '<%= config.bin %> workspaces list',
    '<%= config.bin %> workspaces list --json',
  ];

  async run(): Promise<Workspace[]> {
    const { data } = await this.api.paginate('listWorkspaces', { query: { limit: 100 } });
    if (!this.jsonEnabled()) await printTable(data, workspaceColumns(this.settings.workspace));
    return data;
  }
}
