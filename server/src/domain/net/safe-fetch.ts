import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { request } from 'undici';
import { HopError, validationError } from '../errors.js';
import { checkAddress } from './address-rules.js';
import { pinnedAgent } from './pinned-agent.js';
import { thisMachine } from './this-machine.js';

export interface SafeFetchOptions {
  /** HOP_ALLOW_PRIVATE_URLS: local development and tests only; also allows http. */
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  /** Name of the field in messages (`logoUrl`), so the caller's user knows which input failed. */
  field: string;
  /** The Accept header; an image unless said otherwise (QR logos). */
  accept?: string;
  /** Resolver, for tests. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export interface SafeFetchResult {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

const refused = (field: string, reason: string, message: string) =>
  new HopError('URL_NOT_ALLOWED', `${field}: ${message}`, { reason, field });
const invalid = (field: string, message: string) =>
  validationError(field, message);

const defaultResolve = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Names no real resolver is asked about (RFC 6761, RFC 2606): this machine's loopback names
 * (`localhost`, `*.localhost`, what the hosts file points at loopback: net/this-machine.ts) are
 * loopback; `.test`, `.example`, `.invalid` and example.com/net/org never host a webhook or a
 * logo. Tests and docs use them as stored data, so the server must never send a lookup for them
 * off the machine.
 */
const NEVER_RESOLVED = /(^|\.)(test|example|invalid|example\.com|example\.net|example\.org)$/;

async function resolveHost(host: string, resolve: SafeFetchOptions['resolve']) {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (thisMachine().isLoopbackName(name)) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
  if (!resolve && NEVER_RESOLVED.test(name)) return [];
  return (resolve ?? defaultResolve)(host);
}

/**
 * Resolves a URL's host and checks every address it has (docs/api.md, Events and webhooks); the caller then connects
 * to the first of them and only to it.
 */
export async function checkUrl(raw: string, opts: Pick<SafeFetchOptions, 'allowPrivate' | 'field' | 'resolve'> & {
  /** Plain http to a public address too (link health checks read what visitors are sent to). */
  allowHttp?: boolean;
}) {
  const { field } = opts;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, 'is not a valid URL');
  }
  const schemes = opts.allowPrivate || opts.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw refused(field, 'scheme', `must be an https URL (got ${url.protocol.slice(0, -1)})`);
  if (url.username || url.password) throw refused(field, 'credentials', 'may not carry a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolveHost(host, opts.resolve);
    } catch {
      throw invalid(field, `the host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw invalid(field, `the host ${host} does not resolve`);
  }
  for (const a of addresses) {
    const verdict = checkAddress(a.address, { allowPrivate: opts.allowPrivate });
    if (!verdict.allowed) throw refused(field, 'private_address', `${host} resolves to a non-public address (${verdict.why})`);
  }
  return { url, address: addresses[0] };
}

/**
 * GET a URL under the address rules: the host is resolved once, every address checked, and the
 * connection pinned to the checked address through the agent's `lookup` (no DNS rebinding between
 * check and connect; TLS still verifies the certificate against the host name). No redirects are
 * followed; the body is cut off past `maxBytes` and the whole exchange past `timeoutMs`. `accept`
 * may refuse an answer by its status before its body is read.
 */
async function pinnedGet(raw: string, opts: SafeFetchOptions, headers: Record<string, string>, accept?: (status: number) => void) {
  const { field } = opts;
  const { url, address } = await checkUrl(raw, opts);
  const agent = pinnedAgent(address, opts.timeoutMs);
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await request(url, { method: 'GET', dispatcher: agent, signal, headers });
    try {
      accept?.(res.statusCode);
    } catch (err) {
      await res.body.dump();
      throw err;
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.body.destroy();
      throw invalid(field, `is larger than ${opts.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > opts.maxBytes) {
        res.body.destroy();
        throw invalid(field, `is larger than ${opts.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
  } catch (err) {
    if (err instanceof HopError) throw err;
    if (signal.aborted || (err as { code?: string }).code?.includes('TIMEOUT')) throw invalid(field, `did not answer within ${opts.timeoutMs / 1000} s`);
    throw invalid(field, `could not be fetched (${(err as Error).message})`);
  } finally {
    void agent.close().catch(() => {});
  }
}

/** A document (by default a PNG: a QR code's logo) under the address rules: 200 only. */
export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const res = await pinnedGet(raw, opts, { 'user-agent': 'hop-fetch', accept: opts.accept ?? 'image/png' }, (status) => {
    if (status >= 300 && status < 400) throw invalid(opts.field, `answered ${status} (a redirect); redirects are not followed`);
    if (status !== 200) throw invalid(opts.field, `answered ${status}, not 200`);
  });
  const ct = res.headers['content-type'];
  return { status: res.status, contentType: Array.isArray(ct) ? ct[0] : ct, body: res.body };
}

/**
 * An API read under the same rules that hands back any status with its headers and text (a 429's
 * Retry-After, a 401's message); a redirect is an answer, never followed.
 */
export async function safeGet(raw: string, opts: SafeFetchOptions & { headers: Record<string, string> }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const res = await pinnedGet(raw, opts, { 'user-agent': 'hop-import', ...opts.headers });
  return { status: res.status, headers: res.headers, text: res.body.toString('utf8') };
}
