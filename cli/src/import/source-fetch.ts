// The CLI's transport for reading a source (shared/src/import/read-api.ts): fetch, no redirects
// followed (the token stays with the host it was given for), a minute per request.
import { createHash } from 'node:crypto';
import { readSourceApi, type ImportedLink, type ImportSource, type ReadApiOptions, type SourceContext, type SourceGet } from '@hop/shared/import';

export function sourceContext(): SourceContext {
  return { now: () => new Date(), md5: (s) => createHash('md5').update(s).digest('hex') };
}

export function fetchGet(doFetch: typeof fetch = fetch): SourceGet {
  return async (req) => {
    const res = await doFetch(req.url, { headers: req.headers, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };
}

export function fetchSourceLinks(source: ImportSource, opts: Omit<ReadApiOptions, 'get' | 'ctx'> & { fetch?: typeof fetch }): Promise<ImportedLink[]> {
  return readSourceApi(source, { ...opts, get: fetchGet(opts.fetch), ctx: sourceContext() });
}
