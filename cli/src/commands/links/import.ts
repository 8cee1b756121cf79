import { readFile } from 'node:fs/promises';
import { Args } from '@oclif/core';
import { csvRowToBody, LINK_CSV_IMPORT_COLUMNS, unknownCsvColumns, type CreateLinkBody } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { PartialSuccessError, UsageError } from '../../errors.js';
import { workspaceFlag } from '../../flags.js';
import { createInBulk, progressBar } from '../../link-batch.js';
import { readStdin } from '../../prompts.js';

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

/** The CSV file's rows (stdin for `-`), refused with exit 2 when unreadable, empty or with unknown columns. */
async function readCsvRows(file: string): Promise<Record<string, string>[]> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((err) => {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  });
  const { parse } = await import('csv-parse/sync');
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (err) {
    throw new UsageError(`${file}: not valid CSV: ${(err as Error).message}`);
  }
  if (!rows.length) throw new UsageError(`${file}: no rows`);
  const unknown = unknownCsvColumns(Object.keys(rows[0]));
  if (unknown.length) throw new UsageError(`${file}: unknown column(s) ${unknown.join(', ')}; known: ${LINK_CSV_IMPORT_COLUMNS.join(', ')}`);
  return rows;
}

export default class LinksImport extends BaseCommand<typeof LinksImport> {
  static summary = 'Create links from a CSV file (header: url,slug,title,tags,...) through the bulk endpoint';
  static description = [
    'Columns: url (required), slug, domain, title, description, tags (comma-separated in one cell), expiresAt,',
    'expiredUrl, maxClicks, utmSource, utmMedium, utmCampaign; other columns (those `hop links export` adds) are',
    'ignored. Exit 0 when every row was created, 3 when some failed (each failure is reported).',
  ].join('\n');
  static examples = ['<%= config.bin %> links import links.csv', '<%= config.bin %> links export --format csv | <%= config.bin %> links import - --workspace other-workspace'];
  static args = { file: Args.string({ required: true, description: 'the CSV file; - reads stdin' }) };
  static flags = { workspace: workspaceFlag() };

  async run(): Promise<void> {
    const bodies = (await readCsvRows(this.args.file)).map((r, i) => rowToBody(r, i + 2));
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
}
