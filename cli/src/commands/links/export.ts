import { Flags } from '@oclif/core';
import { LINK_CSV_COLUMNS, linkCsvCells, type Link } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { workspaceFlag } from '../../flags.js';
import { fetchAllLinks } from '../../link-batch.js';
import { UsageError } from '../../errors.js';

export default class LinksExport extends BaseCommand<typeof LinksExport> {
  static summary = 'Print every link of the workspace, as CSV or JSON (all pages)';
  static description = 'The CSV reads back with `hop links import`; the JSON with `hop links apply -f` (read-only fields are ignored).';
  static examples = ['<%= config.bin %> links export --format csv > links.csv', '<%= config.bin %> links export --format json > links.json'];
  static flags = {
    workspace: workspaceFlag(),
    format: Flags.string({ options: ['csv', 'json'], description: 'output format (default csv; --json prints JSON)' }),
  };

  async run(): Promise<Link[] | void> {
    if (this.flags.format === 'csv' && this.jsonEnabled()) throw new UsageError('--format csv and --json ask for two formats: pass one');
    const workspaceId = await this.workspaceId(this.flags.workspace);
    // Oldest first, so that a re-import creates them in the same order.
    const links = (await fetchAllLinks(this.api, workspaceId)).reverse();
    if (this.jsonEnabled()) return links;
    if (this.flags.format === 'json') {
      process.stdout.write(`${JSON.stringify(links, null, 2)}\n`);
    } else {
      const { stringify } = await import('csv-stringify/sync');
      process.stdout.write(stringify(links.map(linkCsvCells), { header: true, columns: [...LINK_CSV_COLUMNS] }));
    }
    this.info(`Exported ${links.length} link(s).`);
  }
}
