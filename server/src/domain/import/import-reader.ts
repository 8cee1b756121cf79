// Reads another shortener's links for the dashboard (POST .../links/import/read): the shared
// importers and reader, over the server's fetch under its outbound address rules (https to public
// addresses only, each connection pinned to the address checked), with a cap on links and time.
import { createHash } from 'node:crypto';
import { readSourceApi, SourceAuthError, SourceError, SOURCES, type ImportedLink, type ReadImportSourceBody } from '@hop/shared/import';
import { HopError, validationError } from '../errors.js';
import { checkUrl, safeGet } from '../net/safe-fetch.js';

/** Past this, the CLI (which has no request to finish) is the way. */
export const READ_MAX_LINKS = 10_000;
const PAGE_BYTES = 8 * 1024 * 1024;
const REQUEST_MS = 20_000;

export interface ImportReaderDeps {
  allowPrivate: boolean;
  /** Resolver, for tests. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
  sleep?: (ms: number) => Promise<void>;
}

export function createImportReader(deps: ImportReaderDeps) {
  return {
    async read(body: ReadImportSourceBody): Promise<ImportedLink[]> {
      const source = SOURCES[body.from];
      const base = (body.url ?? source.defaultUrl)?.replace(/\/+$/, '');
      if (!base) throw validationError('url', `${body.from} is self-hosted: give its address`);
      // The rules decide on the address before any request (each request is checked again).
      await checkUrl(base, { allowPrivate: deps.allowPrivate, resolve: deps.resolve, field: 'url' });
      try {
        return await readSourceApi(source, {
          base,
          token: body.token,
          ctx: { now: () => new Date(), md5: (s) => createHash('md5').update(s).digest('hex') },
          get: async (req) => {
            const res = await safeGet(req.url, {
              allowPrivate: deps.allowPrivate, resolve: deps.resolve, maxBytes: PAGE_BYTES, timeoutMs: REQUEST_MS, field: 'url', headers: req.headers,
            }).catch((err: unknown) => {
              // An address the rules refuse is final; a timeout or a dropped connection is tried again.
              throw err instanceof HopError && err.code === 'URL_NOT_ALLOWED' ? new SourceError(err.message) : err;
            });
            const ra = res.headers['retry-after'];
            return { status: res.status, retryAfter: (Array.isArray(ra) ? ra[0] : ra) ?? null, text: res.text };
          },
          sleep: deps.sleep,
          // A request waits for the answer: short waits only, fewer tries than the CLI's.
          attempts: 4,
          maxWaitMs: 10_000,
          maxLinks: READ_MAX_LINKS,
        });
      } catch (err) {
        if (err instanceof HopError) throw err;
        if (err instanceof SourceAuthError) throw validationError('token', err.message);
        if (err instanceof SourceError) throw validationError('url', err.message);
        throw err;
      }
    },
  };
}
export type ImportReader = ReturnType<typeof createImportReader>;
