import type { Link, ListLinksQuery } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { linkListFlags, wideFlag, workspaceFlag } from '../../flags.js';
import { linkColumns } from '../../resource-views.js';

export default class LinksList extends BaseCommand<typeof LinksList> {
  static summary = 'List and search links, newest first';
  static examples = [
    '<%= config.bin %> links list --tag promo --tag q4 --limit 50',
    '<%= config.bin %> links list --search launch --json',
    '<%= config.bin %> links list --all --created-after 7d',
  ];
  static flags = { workspace: workspaceFlag(), ...linkListFlags(), wide: wideFlag() };

  async run(): Promise<Link[]> {
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const { limit, sort, order, domain, tag, search, all } = this.flags;
    const query = {
      limit, sort, order, domain, tags: tag?.join(','), q: search, createdAfter: this.flags['created-after'],
    } as ListLinksQuery;
    const { data: links, nextCursor: cursor } = await this.api.paginate('listLinks', {
      params: { workspaceId }, query: { ...query, cursor: this.flags.cursor },
    }, { maxPages: all ? undefined : 1 });
    const filtered = Boolean(domain || tag || search || this.flags['created-after'] || this.flags.cursor);
    await this.printList(links, linkColumns, filtered ? 'No links match' : 'No links in this workspace: create one with `hop links create <url>`');
    // After the table, where the eye ends; on stderr, so `--json` output stays exactly the list.
    if (cursor) process.stderr.write(`More links: add --cursor ${cursor} (or --all)\n`);
    return links;
  }
}
