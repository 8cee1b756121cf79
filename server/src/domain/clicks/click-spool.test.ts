// The spool file's format: compressed blocks read back whole and in order, a torn tail skipped,
// and segments of the plain JSON lines earlier servers wrote still replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Visit } from './click-log.js';
import { createClickSpool, type ClickSpool } from './click-spool.js';

const visit = (i: number): Visit => ({
  linkId: `lnk_${i % 97}`, slug: `s${i % 97}`, domain: 'hop.test', destination: `https://example.com/page/${i % 97}`, target: 'default',
  workspaceId: 'ws_1', qrId: null, source: 'link', at: new Date(Date.UTC(2026, 10, 27, 10, 0, 0, i)),
  visitorHash: randomBytes(16).toString('base64url'), country: i % 3 ? 'DE' : null, city: null, device: 'desktop',
  browser: 'Chrome', os: 'Linux', referrer: i % 2 ? 'news.ycombinator.com' : null, isBot: i % 6 === 0, counted: false,
});

/** Reads and forgets every chunk, as a replay does (without the database's offsets). */
async function drain(spool: ClickSpool, max: number): Promise<{ visits: Visit[]; chunks: number[] }> {
  const visits: Visit[] = [];
  const chunks: number[] = [];
  for (let chunk = await spool.read(max); chunk; chunk = await spool.read(max)) {
    visits.push(...chunk.visits);
    chunks.push(chunk.visits.length);
    await spool.replayed(chunk);
  }
  return { visits, chunks };
}

function tempDir(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'hop-spool-unit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('visits come back whole and in order, in chunks of at most the batch asked for, in under a sixth of their JSON size', async (t) => {
  const dir = tempDir(t);
  const spool = createClickSpool({ dir, maxBytes: 1024 ** 3 });
  const sent = Array.from({ length: 5_500 }, (_, i) => visit(i));
  for (const part of [sent.slice(0, 2_500), sent.slice(2_500, 2_501), sent.slice(2_501)]) assert.equal(await spool.append(part), true);
  const json = sent.reduce((n, v) => n + Buffer.byteLength(`${JSON.stringify(v)}\n`), 0);
  assert.ok(spool.bytes * 6 < json, `${spool.bytes} bytes on disk for ${json} bytes of JSON`);

  const { visits, chunks } = await drain(spool, 2_000);
  assert.deepEqual(visits, sent);
  assert.ok(chunks.every((n) => n <= 2_000), `chunks ${chunks.join(', ')}`);
  assert.equal(spool.pending, false);
  assert.deepEqual(readdirSync(dir), [], 'replayed segments are deleted');
});

test('a byte bound refuses what would pass it, and writes nothing of it', async (t) => {
  const dir = tempDir(t);
  const spool = createClickSpool({ dir, maxBytes: 40_000 });
  assert.equal(await spool.append(Array.from({ length: 500 }, (_, i) => visit(i))), true);
  const before = spool.bytes;
  assert.equal(await spool.append(Array.from({ length: 1_000 }, (_, i) => visit(i))), false);
  assert.equal(spool.bytes, before);
  assert.equal((await drain(spool, 10_000)).visits.length, 500);
});

test('a block torn by a crash mid-append ends its segment: the whole blocks before it are replayed after a restart', async (t) => {
  const dir = tempDir(t);
  const sent = Array.from({ length: 3_000 }, (_, i) => visit(i));
  await createClickSpool({ dir, maxBytes: 1024 ** 3 }).append(sent);
  const [segment] = readdirSync(dir);
  truncateSync(join(dir, segment), statSync(join(dir, segment)).size - 100);

  const restarted = createClickSpool({ dir, maxBytes: 1024 ** 3 });
  const { visits } = await drain(restarted, 10_000);
  assert.deepEqual(visits, sent.slice(0, 2_000), 'the two whole blocks, not the torn third');
  assert.deepEqual(readdirSync(dir), []);
});

test('a segment of JSON lines from a server before the blocks is replayed first, then the newer blocks', async (t) => {
  const dir = tempDir(t);
  const old = Array.from({ length: 30 }, (_, i) => visit(i));
  writeFileSync(join(dir, '0000000000001-0000abcd.jsonl'), old.map((v) => `${JSON.stringify(v)}\n`).join(''));
  const spool = createClickSpool({ dir, maxBytes: 1024 ** 3 });
  const recent = Array.from({ length: 20 }, (_, i) => visit(100 + i));
  await spool.append(recent);
  assert.deepEqual((await drain(spool, 10_000)).visits, [...old, ...recent]);
});
