import type { Queryable } from '../../db/database.js';
import type { VisitDetails } from './visit-details.js';

/**
 * A visit as the redirector recorded it: hashed and described already, never holding the IP or
 * the raw headers, so what waits in the buffer (or the spool) is small and is written as it is.
 */
export interface Visit extends VisitDetails {
  linkId: string;
  slug: string;
  domain: string;
  /** The destination the visitor was sent to. */
  destination: string;
  /** Which destination served the visit: `default`, `ios`, `android`, `rule:N`, `variant:N`. */
  target: string;
  workspaceId: string;
  qrId: string | null;
  source: 'link' | 'qr';
  at: Date;
  visitorHash: string;
  country: string | null;
  city: string | null;
  isBot: boolean;
  /** The redirector already counted this visit (links with a click limit count at the redirect). */
  counted: boolean;
}

/**
 * Writers of the click log hold this advisory lock (shared) while they append; the aggregation
 * job takes it exclusively for an instant to read the highest id handed out. Once it has it, every
 * click with a lower id is committed (or gone), so "everything up to that id" is a range that no
 * later commit can add to: no click is skipped or counted twice, whatever the number of writers.
 */
export const CLICK_LOG_GATE = 72_410_301;

const COLUMNS = ['link_id', 'workspace_id', 'qr_id', 'source', 'clicked_at', 'visitor_hash', 'country', 'city', 'device',
  'browser', 'os', 'referrer', 'is_bot', 'counted', 'target'] as const;

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: `\N` for null, the four special characters escaped. */
function copyText(v: string | null): string {
  if (v === null) return '\\N';
  return SPECIAL.test(v) ? v.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : v;
}

/**
 * A time as COPY takes it, the ISO form. Visits come in bursts within the same second, so the part
 * up to the second is formatted once per second (toISOString cost about a microsecond a visit).
 */
let isoSecond = -1;
let isoPrefix = '';
function isoTime(d: Date): string {
  const ms = d.getTime();
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const iso = d.toISOString();
    // Years past 9999 format differently: no prefix to reuse then.
    if (iso.length !== 24) return iso;
    isoSecond = second;
    isoPrefix = iso.slice(0, 20);
  }
  const milli = ms - second * 1000;
  return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/**
 * One visit as a line of COPY's text format, in the order of COLUMNS. Ids (UUIDs), the hash
 * (base64url), the country (two letters or none), the device and the source cannot hold a
 * character COPY escapes, so only the free-text fields are checked.
 */
function copyLine(c: Visit): string {
  return `${c.linkId}\t${c.workspaceId}\t${c.qrId ?? '\\N'}\t${c.source}\t${isoTime(c.at)}\t${
    c.visitorHash}\t${c.country ?? '\\N'}\t${copyText(c.city)}\t${c.device}\t${copyText(c.browser)}\t${
    copyText(c.os)}\t${copyText(c.referrer)}\t${c.isBot ? 't' : 'f'}\t${c.counted ? 't' : 'f'}\t${copyText(c.target)}\n`;
}

const LINES_PER_TURN = 1000;
/** Bytes reserved per line before it is encoded: a line is ~200 bytes; a longer one grows the buffer. */
const BYTES_PER_LINE = 320;

/**
 * The batch in COPY's text format, encoded straight into one buffer a thousand visits at a time,
 * with the event loop let go in between so a large batch does not hold up redirects. Writing each
 * line into the buffer costs less than joining the lines into one string and encoding that, and
 * leaves no megabytes of string for the collector.
 */
export async function copyRows(clicks: readonly Visit[]): Promise<Buffer> {
  let out = Buffer.allocUnsafe(clicks.length * BYTES_PER_LINE);
  let used = 0;
  for (let i = 0; i < clicks.length; i += LINES_PER_TURN) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(i + LINES_PER_TURN, clicks.length);
    for (let j = i; j < end; j++) {
      const line = copyLine(clicks[j]);
      // A UTF-8 character takes at most three bytes per UTF-16 unit.
      if (used + line.length * 3 > out.length) {
        const grown = Buffer.allocUnsafe(Math.max(out.length * 2, used + line.length * 3));
        out.copy(grown, 0, 0, used);
        out = grown;
      }
      used += out.write(line, used);
    }
  }
  return out.subarray(0, used);
}

/** Appends a batch to the click log: one COPY, nothing else (rollups and counters come later). */
export async function appendClicks(tx: Queryable, rows: string | Uint8Array): Promise<void> {
  await tx.query('select pg_advisory_xact_lock_shared($1)', [CLICK_LOG_GATE]);
  await tx.copyIn('clicks', COLUMNS, rows);
}
