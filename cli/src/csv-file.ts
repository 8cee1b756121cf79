import { readFile } from 'node:fs/promises';
import { UsageError } from './errors.js';
import { readStdin } from './prompts.js';

/** A CSV file's rows by header (stdin for `-`), refused with exit 2 when unreadable or empty. */
export async function readCsvFile(file: string): Promise<Record<string, string>[]> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8').catch((err) => {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  });
  const { parse } = await import('csv-parse/sync');
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true, relax_column_count: true });
  } catch (err) {
    throw new UsageError(`${file}: not valid CSV: ${(err as Error).message}`);
  }
  if (!rows.length) throw new UsageError(`${file}: no rows`);
  return rows;
}
