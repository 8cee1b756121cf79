// A source's links from its export file or its API: which one, and the checks before either.
import type { ImportedLink, ImportSource } from '@hop/shared/import';
import { UsageError } from '../errors.js';
import { readCsvFile } from '../csv-file.js';
import { SourceAuthError, SourceError } from '@hop/shared/import';
import { fetchSourceLinks } from './source-fetch.js';

export interface ReadOptions {
  file?: string;
  url?: string;
  token?: string;
  /** A "read N of M" line on stderr (a terminal only). */
  progress: boolean;
  fetch?: typeof fetch;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

/** The API root, refused unless https (or plain http to this machine): the token must not cross the network in clear. */
export function checkedBase(source: ImportSource, url: string | undefined): string {
  const base = url ?? source.defaultUrl;
  if (!base) throw new UsageError(`--from ${source.name} reads a self-hosted server: give its address with --url`);
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new UsageError(`--url ${base}: not a URL`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.test(u.hostname))) {
    throw new UsageError(`--url ${base}: use https (plain http only to this machine), the token travels with each request`);
  }
  if (u.username || u.password) throw new UsageError(`--url: put the token in --token or HOP_IMPORT_TOKEN, not in the URL`);
  return u.href.replace(/\/+$/, '');
}

export async function readSourceLinks(source: ImportSource, opts: ReadOptions): Promise<ImportedLink[]> {
  if (opts.file) {
    if (!source.exportFile) throw new UsageError(`${source.name} has no export file: read its API with --token (or HOP_IMPORT_TOKEN)`);
    const rows = await readCsvFile(opts.file);
    try {
      return source.exportFile.parse(rows);
    } catch (err) {
      throw new UsageError(`${opts.file}: ${(err as Error).message}; expected ${source.exportFile.describe}`);
    }
  }
  if (!opts.token) {
    const file = source.exportFile ? `, or --file with ${source.exportFile.describe}` : '';
    throw new UsageError(`--from ${source.name} needs ${source.tokenHelp} in --token or HOP_IMPORT_TOKEN${file}`);
  }
  const base = checkedBase(source, opts.url);
  try {
    const links = await fetchSourceLinks(source, {
      base, token: opts.token, fetch: opts.fetch,
      onProgress: (read, total) => {
        if (opts.progress) process.stderr.write(`\rReading ${source.name}: ${read}${total ? ` of ${total}` : ''} link(s)`);
      },
    });
    if (opts.progress) process.stderr.write('\n');
    return links;
  } catch (err) {
    if (opts.progress) process.stderr.write('\n');
    if (err instanceof SourceAuthError) throw new Error(`${err.message} with --token or HOP_IMPORT_TOKEN`);
    if (err instanceof SourceError) throw new Error(err.message);
    throw err;
  }
}
