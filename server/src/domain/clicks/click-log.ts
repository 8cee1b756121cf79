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

/**
 * COPY's binary format (PostgreSQL's "COPY", File Formats): the signature, a flags word and an
 * empty header extension; each row is a count of fields and each field its length (-1 for null)
 * and the type's send form; -1 ends the data. PostgreSQL reads it without parsing text: no
 * escapes to undo, no line to split, no timestamp to parse (a click in the text format took ~22,600
 * instructions to append, nearly half of them reading text; docs/adr/).
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
const TRAILER_BYTES = 2;
const FIELDS = COLUMNS.length;
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 UTC). */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 2 ** 32;
/** A row's bytes besides its text: the field count, 15 lengths, the time and two booleans. */
const ROW_FIXED_BYTES = 2 + FIELDS * 4 + 8 + 2;

/** The row buffer, grown (doubled) whenever a row might not fit. */
interface Out {
  buf: Buffer;
  at: number;
}

function room(out: Out, bytes: number): void {
  if (out.at + bytes <= out.buf.length) return;
  const grown = Buffer.allocUnsafe(Math.max(out.buf.length * 2, out.at + bytes));
  out.buf.copy(grown, 0, 0, out.at);
  out.buf = grown;
}

function int32(buf: Buffer, at: number, v: number): void {
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
}

/**
 * A text field at `at`: its length, then its UTF-8 bytes; returns where the next field starts. The
 * row's room was made before (copyRow). Nearly every value is ASCII (ids, hashes, devices, domains),
 * copied a byte at a time here: a call into Buffer.write per field cost more than the loop for
 * values this short. A value with any other character is encoded by Buffer.write.
 */
function text(buf: Buffer, at: number, v: string | null): number {
  if (v === null) {
    int32(buf, at, -1);
    return at + 4;
  }
  const n = v.length;
  const start = at + 4;
  let i = 0;
  for (; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c > 0x7f) break;
    buf[start + i] = c;
  }
  const bytes = i === n ? n : i + buf.write(v.slice(i), start + i, 'utf8');
  int32(buf, at, bytes);
  return start + bytes;
}

/** A boolean field at `at`: length 1, then 0 or 1. */
function bool(buf: Buffer, at: number, v: boolean): number {
  int32(buf, at, 1);
  buf[at + 4] = v ? 1 : 0;
  return at + 5;
}

/**
 * A timestamptz field at `at`: length 8, then microseconds since 2000-01-01 UTC as a big-endian
 * int64 (integer datetimes, PostgreSQL's only kind since version 10). Milliseconds times a thousand
 * stay exact in a double for the next 280 years, so the high and low words are split by division.
 */
function timestamp(buf: Buffer, at: number, d: Date): number {
  const us = (d.getTime() - PG_EPOCH_MS) * 1000;
  const high = Math.floor(us / TWO_32);
  int32(buf, at, 8);
  int32(buf, at + 4, high | 0);
  int32(buf, at + 8, us - high * TWO_32);
  return at + 12;
}

const len = (v: string | null) => (v === null ? 0 : v.length);

/**
 * One visit as a row of COPY's binary format, in the order of COLUMNS: room is made once for the
 * longest the row can be (a UTF-8 character takes at most three bytes per UTF-16 unit).
 */
function copyRow(out: Out, c: Visit): void {
  room(out, ROW_FIXED_BYTES + 3 * (c.linkId.length + c.workspaceId.length + len(c.qrId) + c.source.length
    + c.visitorHash.length + len(c.country) + len(c.city) + c.device.length + len(c.browser) + len(c.os)
    + len(c.referrer) + c.target.length));
  const buf = out.buf;
  buf[out.at] = FIELDS >>> 8;
  buf[out.at + 1] = FIELDS & 0xff;
  let at = out.at + 2;
  at = text(buf, at, c.linkId);
  at = text(buf, at, c.workspaceId);
  at = text(buf, at, c.qrId);
  at = text(buf, at, c.source);
  at = timestamp(buf, at, c.at);
  at = text(buf, at, c.visitorHash);
  at = text(buf, at, c.country);
  at = text(buf, at, c.city);
  at = text(buf, at, c.device);
  at = text(buf, at, c.browser);
  at = text(buf, at, c.os);
  at = text(buf, at, c.referrer);
  at = bool(buf, at, c.isBot);
  at = bool(buf, at, c.counted);
  out.at = text(buf, at, c.target);
}

const ROWS_PER_TURN = 1000;
/** Bytes reserved per row before it is written: a row is ~250 bytes; a longer one grows the buffer. */
const BYTES_PER_ROW = 320;

/**
 * The batch in COPY's binary format, written straight into one buffer a thousand visits at a time,
 * with the event loop let go in between so a large batch does not hold up redirects.
 */
export async function copyRows(clicks: readonly Visit[]): Promise<Buffer> {
  const out: Out = { buf: Buffer.allocUnsafe(SIGNATURE.length + clicks.length * BYTES_PER_ROW + TRAILER_BYTES), at: 0 };
  SIGNATURE.copy(out.buf, 0);
  out.at = SIGNATURE.length;
  for (let i = 0; i < clicks.length; i += ROWS_PER_TURN) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(i + ROWS_PER_TURN, clicks.length);
    for (let j = i; j < end; j++) copyRow(out, clicks[j]);
  }
  room(out, TRAILER_BYTES);
  out.buf[out.at] = 0xff;
  out.buf[out.at + 1] = 0xff;
  out.at += TRAILER_BYTES;
  return out.buf.subarray(0, out.at);
}

/**
 * Appends a batch (copyRows) to the click log: one COPY, nothing else (rollups and counters come
 * later).
 */
export async function appendClicks(tx: Queryable, rows: Uint8Array): Promise<void> {
  await tx.query('select pg_advisory_xact_lock_shared($1)', [CLICK_LOG_GATE]);
  await tx.copyIn('clicks', COLUMNS, rows, 'binary');
}
