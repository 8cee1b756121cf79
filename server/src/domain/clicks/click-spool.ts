import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { open, rm, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../../db/database.js';
import type { Visit } from './click-log.js';

/** A spool file is closed for appends past this size, so replayed ones can be deleted. */
const SEGMENT_BYTES = 64 * 1024 * 1024;
/** Read at most this much of a file per chunk. */
const READ_BYTES = 8 * 1024 * 1024;
const SEGMENT_NAME = /^\d{13}-[0-9a-f]{8}\.jsonl$/;

export interface SpoolChunk {
  segment: string;
  start: number;
  end: number;
  visits: Visit[];
}

/**
 * Visits the database could not take, in append-only files under the data directory (one JSON
 * visit a line), bounded by bytes. Replayed oldest first, a chunk at a time; each chunk's new
 * offset is stored in the database in the same transaction as its clicks (`commit`), so a replay
 * that dies halfway, or a restart, resumes exactly where the last commit left off.
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
   * Runs file changes one at a time: appends never interleave their lines, and a replayed segment
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
    let text = '';
    for (const v of visits) text += `${JSON.stringify(v)}\n`;
    const bytes = Buffer.byteLength(text);
    if (totalBytes() + bytes > deps.maxBytes) return false;
    // A segment is known to readers only once its lines are written.
    const segment = current && sizes.has(current) && sizes.get(current)! < SEGMENT_BYTES ? current : newSegment();
    await appendFile(join(deps.dir, segment), text);
    current = segment;
    sizes.set(segment, (sizes.get(segment) ?? 0) + bytes);
    return true;
  }

  const totalBytes = () => [...sizes.values()].reduce((n, s) => n + s, 0);
  const newSegment = () => `${String(Date.now()).padStart(13, '0')}-${randomBytes(4).toString('hex')}.jsonl`;

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
        const buf = Buffer.alloc(Math.min(READ_BYTES, size! - start));
        const { bytesRead } = await file.read(buf, 0, buf.length, start);
        const visits: Visit[] = [];
        let pos = 0;
        while (visits.length < max) {
          const nl = buf.indexOf(10, pos);
          if (nl < 0 || nl >= bytesRead) break;
          const v = JSON.parse(buf.toString('utf8', pos, nl)) as Visit & { at: string };
          visits.push({ ...v, at: new Date(v.at) });
          pos = nl + 1;
        }
        // Nothing whole left: a line torn by a crash mid-append ends the segment.
        if (visits.length === 0 && start + bytesRead >= size!) return { segment, start, end: size!, visits };
        return { segment, start, end: start + pos, visits };
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

export type ClickSpool = ReturnType<typeof createClickSpool>;
