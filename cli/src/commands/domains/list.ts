import type { Domain } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { wideFlag, workspaceFlag } from '../../flags.js';
import { domainColumns } from '../../resource-views.js';

export default class DomainsList extends BaseCommand<typeof DomainsList> {
  static summary = 'List the custom domains of the workspace, with their TXT records';
  static examples = [
    '<%= config.bin %> domains list',
    '<%= config.bin %> domains list --json',
  ];
  static flags = { workspace: workspaceFlag(), wide: wideFlag() };

  async run(): Promise<Domain[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { data } = await this.api.paginate('listDomains', { params: { workspaceId }, query: { limit: 100 } });
    await this.printList(data, domainColumns, 'No domains: add one with `hop domains add <name>`');
    return data;
  }
}
