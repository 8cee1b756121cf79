// A batch's COPY text is encoded straight into a buffer: escapes, non-ASCII text and lines longer
// than the room reserved for them come out as COPY reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyRows, type Visit } from './click-log.js';

const visit = (over: Partial<Visit>): Visit => ({
  linkId: 'lnk_1', slug: 's', domain: 'hop.test', destination: 'https://example.com/', target: 'default',
  workspaceId: 'ws_1', qrId: null, source: 'link', at: new Date('2026-11-26T10:00:00.007Z'), visitorHash: 'v1',
  country: null, city: null, device: 'desktop', browser: 'Chrome', os: 'Linux', referrer: null, isBot: false, counted: false,
  ...over,
});

test('each visit is one line of COPY text, with nulls as \\N and tab, newline, return and backslash escaped', async () => {
  const rows = await copyRows([
    visit({}),
    visit({ qrId: 'qr_1', source: 'qr', country: 'DE', city: 'Köln\tNord', browser: 'a\\b', os: 'line\nbreak\r', referrer: 'news.ycombinator.com', isBot: true, counted: true, target: 'rule:2' }),
  ]);
  assert.equal(rows.toString('utf8'), [
    'lnk_1\tws_1\t\\N\tlink\t2026-11-26T10:00:00.007Z\tv1\t\\N\t\\N\tdesktop\tChrome\tLinux\t\\N\tf\tf\tdefault\n',
    'lnk_1\tws_1\tqr_1\tqr\t2026-11-26T10:00:00.007Z\tv1\tDE\tKöln\\tNord\tdesktop\ta\\\\b\tline\\nbreak\\r\tnews.ycombinator.com\tt\tt\trule:2\n',
  ].join(''));
});

test('lines longer than the room reserved for them, in several scripts, are all kept whole', async () => {
  const long = 'Ω漢😀'.repeat(2_000);
  const visits = Array.from({ length: 2_500 }, (_, i) => visit({ visitorHash: `v${i}`, browser: i % 500 === 0 ? long : 'Firefox' }));
  const lines = (await copyRows(visits)).toString('utf8').split('\n');
  assert.equal(lines.length, visits.length + 1);
  assert.equal(lines.at(-1), '');
  lines.slice(0, -1).forEach((line, i) => {
    const fields = line.split('\t');
    assert.equal(fields[5], `v${i}`);
    assert.equal(fields[9], i % 500 === 0 ? long : 'Firefox');
  });
});
