// A batch is written straight into a buffer in COPY's binary format: nulls, non-ASCII text, times
// and rows longer than the room reserved for them come out as PostgreSQL reads them (the format's
// own reading is here; test/api and test/in-process write through both databases).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyRows, type Visit } from './click-log.js';

const visit = (over: Partial<Visit>): Visit => ({
  linkId: 'lnk_1', slug: 's', domain: 'hop.test', destination: 'https://example.com/', target: 'default',
  workspaceId: 'ws_1', qrId: null, source: 'link', at: new Date('2026-11-26T10:00:00.007Z'), visitorHash: 'v1',
  country: null, city: null, device: 'desktop', browser: 'Chrome', os: 'Linux', referrer: null, isBot: false, counted: false,
  ...over,
});

type Field = string | boolean | Date | null;
const KINDS = ['text', 'text', 'text', 'text', 'time', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bool', 'bool', 'text'] as const;

/** Reads COPY's binary format back, as PostgreSQL does: header, rows of 15 fields, trailer. */
function readRows(buf: Buffer): Field[][] {
  assert.equal(buf.subarray(0, 11).toString('latin1'), 'PGCOPY\n\xff\r\n\0');
  assert.equal(buf.readInt32BE(11), 0, 'no flags');
  assert.equal(buf.readInt32BE(15), 0, 'no header extension');
  let at = 19;
  const rows: Field[][] = [];
  for (;;) {
    const fields = buf.readInt16BE(at);
    at += 2;
    if (fields === -1) break;
    assert.equal(fields, KINDS.length);
    const row: Field[] = [];
    for (const kind of KINDS) {
      const n = buf.readInt32BE(at);
      at += 4;
      if (n === -1) {
        row.push(null);
        continue;
      }
      const bytes = buf.subarray(at, at + n);
      at += n;
      if (kind === 'text') row.push(bytes.toString('utf8'));
      else if (kind === 'bool') {
        assert.equal(n, 1);
        row.push(bytes[0] === 1);
      } else {
        assert.equal(n, 8);
        const us = bytes.readBigInt64BE(0);
        row.push(new Date(Number(us / 1000n) + Date.UTC(2000, 0, 1)));
      }
    }
    rows.push(row);
  }
  assert.equal(at, buf.length, 'nothing after the trailer');
  return rows;
}

test('each visit is one row of 15 fields: nulls as length -1, text as UTF-8, times as microseconds since 2000', async () => {
  const rows = readRows(await copyRows([
    visit({}),
    visit({ qrId: 'qr_1', source: 'qr', country: 'DE', city: 'Köln\tNord', browser: 'a\\b', os: 'line\nbreak\r', referrer: 'news.ycombinator.com', isBot: true, counted: true, target: 'rule:2' }),
    visit({ at: new Date('1999-12-31T23:59:59.999Z') }),
  ]));
  const at = new Date('2026-11-26T10:00:00.007Z');
  assert.deepEqual(rows, [
    ['lnk_1', 'ws_1', null, 'link', at, 'v1', null, null, 'desktop', 'Chrome', 'Linux', null, false, false, 'default'],
    ['lnk_1', 'ws_1', 'qr_1', 'qr', at, 'v1', 'DE', 'Köln\tNord', 'desktop', 'a\\b', 'line\nbreak\r', 'news.ycombinator.com', true, true, 'rule:2'],
    // Before PostgreSQL's epoch: a negative count of microseconds.
    ['lnk_1', 'ws_1', null, 'link', new Date('1999-12-31T23:59:59.999Z'), 'v1', null, null, 'desktop', 'Chrome', 'Linux', null, false, false, 'default'],
  ]);
});

test('an empty batch is the header and the trailer', async () => {
  assert.deepEqual(readRows(await copyRows([])), []);
});

test('rows longer than the room reserved for them, in several scripts, are all kept whole', async () => {
  const long = 'Ω漢😀'.repeat(2_000);
  const visits = Array.from({ length: 2_500 }, (_, i) => visit({ visitorHash: `v${i}`, browser: i % 500 === 0 ? long : 'Firefox', os: i % 7 === 0 ? 'ASCII then é' : 'Linux' }));
  const rows = readRows(await copyRows(visits));
  assert.equal(rows.length, visits.length);
  rows.forEach((row, i) => {
    assert.equal(row[5], `v${i}`);
    assert.equal(row[9], i % 500 === 0 ? long : 'Firefox');
    assert.equal(row[10], i % 7 === 0 ? 'ASCII then é' : 'Linux');
  });
});
