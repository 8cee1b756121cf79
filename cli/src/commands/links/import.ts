import { Args, Flags } from '@oclif/core';
import { csvRowToBody, LINK_CSV_IMPORT_COLUMNS, unknownCsvColumns, type CreateLinkBody } from '@hop/shared';
import { IMPORT_SOURCES, SOURCES, planImport, type ImportSourceName } from '@hop/shared/import';
import { BaseCommand } from '../../base-command.js';
import { PartialSuccessError, UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { createInBulk, customDomainNames, fetchAllLinks, progressBar } from '../../link-batch.js';
import { readCsvFile } from '../../csv-file.js';
import { readSourceLinks } from '../../import/read-source.js';
import { countsLine, importReport, renderImportPlan, renderImportSummary } from '../../import/import-report.js';
import { writeImport } from '../../import/import-writer.js';

/** One CSV row as a create body, refused with exit 2 naming its line. */
export function rowToBody(row: Record<string, string>, line: number): CreateLinkBody {
  const { body, problem } = csvRowToBody(row);
  if (problem !== undefined) throw new UsageError(`line ${line}: ${problem}`);
  return body;
}

export interface ImportLine {
  line: number;
  success: boolean;
  id?: string;
  shortUrl?: string;
  error?: { code: string; message: string };
}

/** Hop's own CSV: refused when a column is not one of its link fields or the export's extras. */
async function readCsvRows(file: string): Promise<Record<string, string>[]> {
  const rows = await readCsvFile(file);
  const unknown = unknownCsvColumns(Object.keys(rows[0]));
  if (unknown.length) throw new UsageError(`${file}: unknown column(s) ${unknown.join(', ')}; known: ${LINK_CSV_IMPORT_COLUMNS.join(', ')}`);
  return rows;
}

export default class LinksImport extends BaseCommand<typeof LinksImport> {
  static summary = 'Create links from a CSV file, or import them from Bitly, Dub, Shlink, Kutt or YOURLS';
  static description = [
    'Hop\'s CSV (no --from, or --from csv): columns url (required), slug, domain, title, description, tags',
    '(comma-separated in one cell), expiresAt, expiredUrl, maxClicks, utmSource, utmMedium, utmCampaign; other',
    'columns (those `hop links export` adds) are ignored.',
    '',
    'Another shortener (--from): read through its API with --token (or HOP_IMPORT_TOKEN; --url for a self-hosted',
    'one) or from its export file with --file. Each slug is kept, on the same custom domain when the workspace has',
    'it, else on the default domain (listed). Destination, title, tags, expiry, creation time and lifetime clicks',
    'carry over; password-protected links are tagged password-not-imported and listed; anything else that does',
    'not carry is listed by link. A slug already there with the same destination is skipped, so running again',
    'creates nothing and an interrupted run resumes; one with another destination is a conflict, left alone',
    'unless --on-conflict overwrite. --dry-run prints the plan. See docs/import.md.',
    '',
    'Exit 0 when everything was imported, 3 when some links failed, conflicted or could not be imported.',
  ].join('\n');
  static examples = [
    '<%= config.bin %> links import links.csv',
    '<%= config.bin %> links export --format csv | <%= config.bin %> links import - --workspace other-workspace',
    'HOP_IMPORT_TOKEN=... <%= config.bin %> links import --from bitly --dry-run',
    '<%= config.bin %> links import --from shlink --url https://s.example.com --token ... --on-conflict overwrite',
    '<%= config.bin %> links import --from dub --file dub-links.csv --json',
  ];
  static args = { file: Args.string({ required: false, description: 'Hop\'s CSV file, or with --from a service\'s export file; - reads stdin' }) };
  static flags = {
    workspace: workspaceFlag(),
    from: Flags.string({ options: [...IMPORT_SOURCES, 'csv'], description: 'the service the links come from (csv: Hop\'s own CSV)' }),
    url: Flags.string({ helpValue: '<base>', description: 'the service\'s API root (needed for self-hosted Shlink, YOURLS, Kutt)' }),
    token: Flags.string({ env: 'HOP_IMPORT_TOKEN', description: 'the service\'s API token (prefer HOP_IMPORT_TOKEN: a flag stays in the shell history)' }),
    file: Flags.string({ char: 'f', helpValue: '<export.csv|->', description: 'the service\'s export file instead of its API' }),
    'dry-run': Flags.boolean({ description: 'print the plan (create, skip and conflict counts, then each link) and change nothing' }),
    'on-conflict': Flags.string({ options: ['skip', 'overwrite'], default: 'skip', description: 'a slug already there with another destination: leave it (skip) or replace it (overwrite)' }),
  };

  async run(): Promise<void> {
    const from = this.flags.from;
    if (from && from !== 'csv') return this.importFrom(from as ImportSourceName);
    const file = this.args.file ?? this.flags.file;
    if (!file) throw new UsageError('name the CSV file (or - for stdin), or --from a service');
    const bodies = (await readCsvRows(file)).map((r, i) => rowToBody(r, i + 2));
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const json = this.jsonEnabled();
    const tty = !json && Boolean(process.stderr.isTTY);
    const bar = progressBar(bodies.length, tty);
    const results = await createInBulk(this.api, workspaceId, bodies, (r) => {
      bar.tick();
      const line: ImportLine = r.success
        ? { line: r.index + 2, success: true, id: r.link?.id, shortUrl: r.link?.shortUrl }
        : { line: r.index + 2, success: false, error: r.error };
      if (json) process.stdout.write(`${JSON.stringify(line)}\n`);
      else if (r.success) process.stdout.write(`${r.link?.shortUrl}\n`);
      else process.stderr.write(`${tty ? '\n' : ''}line ${line.line}: ${r.error?.message} (${r.error?.code})\n`);
    });
    bar.end();
    const failed = results.filter((r) => !r.success).length;
    this.info(`Imported ${results.length - failed} of ${results.length} link(s)${failed ? `; ${failed} failed` : ''}.`);
    if (failed === results.length) throw new Error(`no link was created (first: ${results[0].error?.message})`);
    if (failed) throw new PartialSuccessError(failed, results.length);
  }

  /** `--from <service>`: read, plan against the workspace, then (unless --dry-run) write. */
  private async importFrom(from: ImportSourceName): Promise<void> {
    const json = this.jsonEnabled();
    const tty = !json && Boolean(process.stderr.isTTY);
    const records = await readSourceLinks(SOURCES[from], {
      file: this.flags.file ?? this.args.file, url: this.flags.url, token: this.flags.token, progress: tty,
    });
    const workspaceId = await this.workspaceId(this.flags.workspace);
    const [links, custom] = await Promise.all([fetchAllLinks(this.api, workspaceId), customDomainNames(this.api, workspaceId, { verifiedOnly: true })]);
    const customDomains = new Set([...custom].map((d) => d.toLowerCase()));
    const items = planImport(records, links, { customDomains, onConflict: this.flags['on-conflict'] as 'skip' | 'overwrite' });
    const defaultDomain = links.find((l) => !customDomains.has(l.domain))?.domain;
    if (this.flags['dry-run']) {
      process.stdout.write(json ? `${JSON.stringify(importReport(from, true, items, null))}\n` : `${renderImportPlan(items, defaultDomain)}\n`);
      return;
    }
    this.info(countsLine(items));
    const writes = items.filter((i) => i.action === 'create' || i.action === 'overwrite').length;
    const bar = progressBar(writes, tty);
    const results = await writeImport(this.api, workspaceId, items, () => bar.tick());
    bar.end();
    process.stdout.write(json ? `${JSON.stringify(importReport(from, false, items, results))}\n` : `${renderImportSummary(items, results, defaultDomain)}\n`);
    const failed = results.filter((r) => !r.success).length;
    if (writes && failed === writes) throw new Error(`no link was imported (first: ${results.find((r) => !r.success)?.error?.message})`);
    const left = failed + items.filter((i) => i.action === 'conflict' || i.action === 'invalid').length;
    if (left) throw new PartialSuccessError(left, items.length);
  }
}
