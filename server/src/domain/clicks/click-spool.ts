import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { open, rm, appendFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { constants, deflateRaw, inflateRaw } from 'node:zlib';
import type { Queryable } from '../../db/database.js';
import type { Visit } from './click-log.js';

/** A spool file is closed for appends past this size, so replayed ones can be deleted. */
const SEGMENT_BYTES = 64 * 1024 * 1024;
/** Read at most this much of a file per chunk (more only for a block that needs it). */
const READ_BYTES = 8 * 1024 * 1024;
/**
 * Segments of compressed blocks (`.spool`), and of plain JSON lines (`.jsonl`), which servers
 * before the blocks wrote and which are still replayed.
 */
const SEGMENT_NAME = /^\d{13}-[0-9a-f]{8}\.(jsonl|spool)$/;
/**
 * Visits per block: a replay takes whole blocks, so this must not pass the smallest batch a
 * pipeline asks for (click-pipeline.ts: 2,000 on the embedded database).
 */
const BLOCK_VISITS = 1_000;
/** Bytes of a block's header: the length of its compressed body, big-endian. */
const HEADER_BYTES = 4;
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export interface SpoolChunk {
  segment: string;
  start: number;
  end: number;
  visits: Visit[];
}

/**
 * Visits the database could not take, in append-only files under the data directory, bounded by
 * bytes. Replayed oldest first, a chunk at a time; each chunk's new offset is stored in the
 * database in the same transaction as its clicks (`claim`), so a replay that dies halfway, or a
 * restart, resumes exactly where the last commit left off.
 *
 * A file is a run of blocks, each a 4-byte length and then that many bytes of raw DEFLATE of up to
 * BLOCK_VISITS visits as JSON lines. Compressed, a visit takes ~35-45 bytes instead of ~400 (its
 * visitor hash is most of what is left), so the default gigabyte holds some 25 million visits: a
 * 5-minute outage at a full 20,000 redirects a second filled the uncompressed spool halfway
 * through (docs/adr/, "No click lost: a spool file"). Compression runs on libuv's thread
 * pool, and only while the database is away.
 */
export function createClickSpool(deps: { dir: string; maxBytes: number }) {
  mkdirSync(deps.dir, { recursive: true });
  const sizes = new Map<string, number>();
  for (const name of readdirSync(deps.dir).filter((n) => SEGMENT_NAME.test(n)).sort()) sizes.set(name, statSync(join(deps.dir, name)).size);
  /** Replayed up to here, per segment (known once its first chunk is read). */
  const offsets = new Map<string, number>();
  let current: string | undefined;

  let queue: Promise<unknown> = Promise.resolve();
  /**
   * Runs file changes one at a time: appends never interleave their blocks, and a replayed segment
   * is deleted only once no append to it is half done (one could otherwise land in a file that is
   * being deleted, and be lost).
   */
  function serially<T>(fn: () => Promise<T>): Promise<T> {
    const done = queue.then(fn);
    queue = done.catch(() => {});
    return done;
  }

  async function appendNow(visits: readonly Visit[]): Promise<boolean> {
    if (visits.length === 0) return true;
    const blocks: Buffer[] = [];
    for (let i = 0; i < visits.length; i += BLOCK_VISITS) {
      let text = '';
      for (const v of visits.slice(i, i + BLOCK_VISITS)) text += `${JSON.stringify(v)}\n`;
      const body = await deflate(text, { level: constants.Z_BEST_SPEED });
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32BE(body.length);
      blocks.push(header, body);
    }
    const data = Buffer.concat(blocks);
    if (totalBytes() + data.length > deps.maxBytes) return false;
    // A segment is known to readers only once its blocks are written.
    const segment = current && sizes.has(current) && sizes.get(current)! < SEGMENT_BYTES ? current : newSegment();
    try {
      await appendFile(join(deps.dir, segment), data);
    } catch (err) {
      // Part of the blocks may be on disk (a full disk), yet the caller keeps these visits: they
      // are cut off again, or a restart would replay the whole blocks among them a second time.
      // Should that fail too, no append goes after them, and this run reads only `sizes`' bytes.
      current = undefined;
      const before = sizes.get(segment);
      await (before === undefined ? rm(join(deps.dir, segment), { force: true }) : truncate(join(deps.dir, segment), before)).catch(() => {});
      throw err;
    }
    current = segment;
    sizes.set(segment, (sizes.get(segment) ?? 0) + data.length);
    return true;
  }

  const totalBytes = () => [...sizes.values()].reduce((n, s) => n + s, 0);
  const newSegment = () => `${String(Date.now()).padStart(13, '0')}-${randomBytes(4).toString('hex')}.spool`;

  return {
    get bytes() {
      return totalBytes();
    },
    get pending() {
      return sizes.size > 0;
    },
    /** Appends visits in order; false (nothing written) when they would pass the byte bound. */
    append(visits: readonly Visit[]): Promise<boolean> {
      return serially(() => appendNow(visits));
    },
    /** The next visits to replay (at most `max`), from the oldest segment, or null. */
    async read(max: number): Promise<SpoolChunk | null> {
      const [segment, size] = [...sizes.entries()][0] ?? [];
      if (!segment) return null;
      const start = offsets.get(segment) ?? 0;
      const file = await open(join(deps.dir, segment), 'r');
      try {
        const { visits, end } = segment.endsWith('.jsonl')
          ? await readLines(file, start, size!, max)
          : await readBlocks(file, start, size!, max);
        return { segment, start, end, visits };
      } finally {
        await file.close();
      }
    },
    /**
     * In the replay's transaction: checks the chunk starts where the last committed replay of its
     * segment ended, and moves that mark to its end. False when it does not (a previous run
     * committed further and died before it could forget the chunk): the chunk must be skipped.
     */
    async claim(tx: Queryable, chunk: SpoolChunk): Promise<boolean> {
      const [row] = await tx.query<{ byte_offset: number }>(
        'select byte_offset from click_spool_progress where segment = $1 for update', [chunk.segment]);
      const committed = Number(row?.byte_offset ?? 0);
      if (committed !== chunk.start) {
        offsets.set(chunk.segment, committed);
        return false;
      }
      await tx.query(
        `insert into click_spool_progress (segment, byte_offset) values ($1, $2)
         on conflict (segment) do update set byte_offset = excluded.byte_offset, updated_at = now()`,
        [chunk.segment, chunk.end],
      );
      return true;
    },
    /** After the replay's commit: forgets the chunk, and the segment once it is all replayed. */
    replayed(chunk: SpoolChunk): Promise<void> {
      return serially(async () => {
        offsets.set(chunk.segment, chunk.end);
        if (chunk.end >= (sizes.get(chunk.segment) ?? 0)) {
          sizes.delete(chunk.segment);
          offsets.delete(chunk.segment);
          if (current === chunk.segment) current = undefined;
          await rm(join(deps.dir, chunk.segment), { force: true });
        }
      });
    },
  };
}

type SpoolFile = Awaited<ReturnType<typeof open>>;

async function readAt(file: SpoolFile, start: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await file.read(buf, 0, length, start);
  return buf.subarray(0, bytesRead);
}

const parseVisit = (line: string): Visit => {
  const v = JSON.parse(line) as Visit & { at: string };
  return { ...v, at: new Date(v.at) };
};

/**
 * Whole blocks from `start`, up to `max` visits, and where they end. A block cut short at the end
 * of the file (a crash in the middle of an append) ends the segment.
 */
async function readBlocks(file: SpoolFile, start: number, size: number, max: number) {
  let buf = await readAt(file, start, Math.min(READ_BYTES, size - start));
  const visits: Visit[] = [];
  let pos = 0;
  while (visits.length === 0 || visits.length + BLOCK_VISITS <= max) {
    if (pos + HEADER_BYTES > buf.length) break;
    const blockEnd = pos + HEADER_BYTES + buf.readUInt32BE(pos);
    if (blockEnd > buf.length) {
      if (start + blockEnd > size) break; // torn: nothing whole follows
      if (visits.length > 0) break; // the next chunk starts with it
      buf = await readAt(file, start, blockEnd); // one block larger than a read
    }
    const text = (await inflate(buf.subarray(pos + HEADER_BYTES, blockEnd))).toString('utf8');
    for (const line of text.split('\n')) if (line) visits.push(parseVisit(line));
    pos = blockEnd;
  }
  // Nothing whole left: the torn tail is skipped.
  return { visits, end: visits.length === 0 ? size : start + pos };
}

/** Whole JSON lines from `start` (the format before blocks), up to `max` visits. */
async function readLines(file: SpoolFile, start: number, size: number, max: number) {
  const buf = await readAt(file, start, Math.min(READ_BYTES, size - start));
  const visits: Visit[] = [];
  let pos = 0;
  while (visits.length < max) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    visits.push(parseVisit(buf.toString('utf8', pos, nl)));
    pos = nl + 1;
  }
  // Nothing whole left: a line torn by a crash mid-append ends the segment.
  return { visits, end: visits.length === 0 && start + buf.length >= size ? size : start + pos };
}

export type ClickSpool = ReturnType<typeof createClickSpool>;
