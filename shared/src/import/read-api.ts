// Reads a source's API page by page, as its importer describes the requests, honouring the
// service's rate limits: a 429 waits for its Retry-After (or backs off when it gives none), a 5xx or
// a dropped connection backs off and tries again, a refused token stops at once. The transport is
// the caller's: the CLI's fetch, or the server's fetch under its outbound address rules.
import { parseRetryAfter } from '../retry-after.js';
import type { ImportedLink, ImportSource, SourceContext, SourceRequest } from './types.js';

/** One answer as the reader needs it. */
export interface SourceResponse {
  status: number;
  retryAfter: string | null;
  text: string;
}

export type SourceGet = (req: SourceRequest) => Promise<SourceResponse>;

export interface ReadApiOptions {
  base: string;
  token: string;
  get: SourceGet;
  ctx: SourceContext;
  /** Waits; tests inject one that records the waits instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  /** After each page: links read so far, and the total when the source says. */
  onProgress?: (read: number, total: number | undefined) => void;
  /** Tries per request (the first included). */
  attempts?: number;
  /** The longest wait for a rate limit before giving up. */
  maxWaitMs?: number;
  /** Per-link requests (Bitly's clicks) in flight at once. */
  concurrency?: number;
  /** Stop with an error past this many links. */
  maxLinks?: number;
}

/** The source refused the token (401/403): expired, revoked or wrong. */
export class SourceAuthError extends Error {}
/** The source failed in a way retrying did not mend, or answered what its importer cannot read. */
export class SourceError extends Error {}

const BACKOFF_MS = 500;

const errorText = (body: string) => {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = (j.error && typeof j.error === 'object' ? j.error : j) as Record<string, unknown>;
    return String(e.message ?? e.detail ?? e.title ?? j.error ?? body).slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
};

/** One request's JSON, retried as the source's limits ask. */
export async function getSourceJson(source: ImportSource, req: SourceRequest, opts: Pick<ReadApiOptions, 'get' | 'sleep' | 'attempts' | 'maxWaitMs'>): Promise<unknown> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const attempts = opts.attempts ?? 6;
  const maxWait = opts.maxWaitMs ?? 5 * 60_000;
  let last = '';
  for (let attempt = 1; ; attempt++) {
    let wait: number;
    try {
      const res = await opts.get(req);
      if (res.status >= 200 && res.status < 300) {
        try {
          return JSON.parse(res.text);
        } catch {
          throw new SourceError(`${source.name}: ${req.what}: the answer is not JSON`);
        }
      }
      last = `HTTP ${res.status}: ${errorText(res.text)}`;
      if (res.status === 401 || res.status === 403) {
        throw new SourceAuthError(`${source.name} refused the token (${last}) while reading ${req.what}: it may have expired or lack access; give ${source.tokenHelp}`);
      }
      if (res.status === 429) wait = parseRetryAfter(res.retryAfter) ?? BACKOFF_MS * 2 ** (attempt - 1);
      else if (res.status >= 500) wait = BACKOFF_MS * 2 ** (attempt - 1);
      else throw new SourceError(`${source.name}: ${req.what}: ${last}`);
    } catch (err) {
      if (err instanceof SourceAuthError || err instanceof SourceError) throw err;
      last = (err as Error).message;
      wait = BACKOFF_MS * 2 ** (attempt - 1);
    }
    if (attempt >= attempts) throw new SourceError(`${source.name}: ${req.what}: still failing after ${attempts} tries (${last}); nothing was created, run again later`);
    if (wait > maxWait) throw new SourceError(`${source.name}: ${req.what}: rate limited for ${Math.ceil(wait / 1000)} s; run again later`);
    await sleep(wait);
  }
}

/** Every link of the source, with the per-link details its importer asks for. */
export async function readSourceApi(source: ImportSource, opts: ReadApiOptions): Promise<ImportedLink[]> {
  const links: ImportedLink[] = [];
  let req: SourceRequest | null = source.api.first(opts.base, opts.token, opts.ctx);
  while (req) {
    const body = await getSourceJson(source, req, opts);
    let page;
    try {
      page = source.api.page(body, req, opts.base, opts.token, opts.ctx);
    } catch (err) {
      throw new SourceError(`${source.name}: ${req.what}: ${(err as Error).message}`);
    }
    links.push(...page.links);
    if (opts.maxLinks !== undefined && links.length > opts.maxLinks) throw new SourceError(`${source.name} holds more than ${opts.maxLinks} links: import them with the CLI (hop links import --from ${source.name})`);
    opts.onProgress?.(links.length, page.total);
    req = page.next;
  }
  const detail = source.api.detail;
  if (!detail) return links;
  let next = 0;
  const worker = async () => {
    while (next < links.length) {
      const i = next++;
      const r = detail.request(links[i], opts.base, opts.token);
      if (r) links[i] = detail.apply(links[i], await getSourceJson(source, r, opts));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return links;
}
