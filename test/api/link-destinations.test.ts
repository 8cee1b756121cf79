// Destinations are stored normalised, refuse control characters and backslashes, and can never
// point back at Hop itself, in any spelling, through any route that writes a link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { HopApiError } from '@hop/shared/client';
import { API_URL, apiKey, SHORT_DOMAIN, team } from '../helpers/api.js';

const refusal = (p: Promise<unknown>) => p.then(() => assert.fail('accepted'), (e: HopApiError) => e);
const issuePaths = (e: HopApiError) => ((e.details.issues ?? []) as { path: string }[]).map((i) => i.path);

test('destinations are stored as WHATWG normalises them', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const cases: [string, string][] = [
    ['HTTPS://Example.COM:443/a/./b/../c?q=a b#frag', 'https://example.com/a/c?q=a%20b#frag'],
    ['http://EXAMPLE.com:80', 'http://example.com/'],
    ['https://bücher.example/ä', 'https://xn--bcher-kva.example/%C3%A4'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
  ];
  for (const [input, stored] of cases) {
    const { data } = await t.api.call('createLink', { params, body: { url: input, expiredUrl: input } });
    assert.equal(data.url, stored, input);
    assert.equal(data.expiredUrl, stored, input);
    const { data: read } = await t.api.call('getLink', { params: { ...params, linkId: data.id } });
    assert.equal(read.url, stored);
  }
});

test('control characters and backslashes are refused with VALIDATION_ERROR, not dropped', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/ok' } });
  const bad = [
    'https://example.com/a\r\nSet-Cookie: x=1', 'https://example.com/\n', 'https://exa\tmple.com/', 'https://example.com/\u0000',
    'https://example.com/\u007f', 'https://example.com/\u0085', 'https://example.com\\@evil.example/', 'https://example.com/a\\b',
  ];
  for (const url of bad) {
    for (const attempt of [
      () => t.api.call('createLink', { params, body: { url } }),
      () => t.api.call('createLink', { params, body: { url: 'https://example.com/', expiredUrl: url } }),
      () => t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { url } }),
    ]) {
      const err = await refusal(attempt());
      assert.equal(err.statusCode, 400, JSON.stringify(url));
      assert.equal(err.code, 'VALIDATION_ERROR', JSON.stringify(url));
      assert.ok(issuePaths(err).some((p) => p === 'url' || p === 'expiredUrl'), JSON.stringify(url));
    }
  }
  const { data: unchanged } = await t.api.call('getLink', { params: { ...params, linkId: link.id } });
  assert.equal(unchanged.url, 'https://example.com/ok');
});

test('a link can never point at Hop itself: every spelling, every route that writes a link', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = await apiKey(t, ['links:write', 'links:read']);
  const port = new URL(`http://${SHORT_DOMAIN}`).port;
  const apiHost = new URL(API_URL).host;
  const loops = [
    `http://${SHORT_DOMAIN}/x`, `http://${SHORT_DOMAIN.toUpperCase()}/x`, `http://localhost.:${port}/x`, `http://localhost..:${port}/x`,
    `https://localhost:${port}/x`, `http://127.0.0.1:${port}/x`, `http://2130706433:${port}/x`, `http://0x7f000001:${port}/x`,
    `http://0177.0.0.1:${port}/x`, `http://127.1:${port}/x`, `http://127.0.0.2:${port}/x`, `http://0.0.0.0:${port}/x`,
    `http://[::1]:${port}/x`, `http://[::ffff:127.0.0.1]:${port}/x`, `http://[::127.0.0.1]:${port}/x`, `http://app.localhost:${port}/x`,
    `http://${apiHost}/x`, `http://%6c%6fcalhost:${port}/x`,
  ];
  const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/start' } });
  for (const url of loops) {
    const attempts: [string, () => Promise<unknown>][] = [
      ['create', () => t.api.call('createLink', { params, body: { url } })],
      ['create expiredUrl', () => t.api.call('createLink', { params, body: { url: 'https://example.com/', expiredUrl: url } })],
      ['update', () => t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { url } })],
      ['update by id', () => t.api.call('updateLinkById', { params: { linkId: link.id }, body: { expiredUrl: url } })],
      ['integration', () => key.api.raw('POST', '/api/v1/links', { body: { url } }).then((r) => {
        if (r.status < 400) return r;
        const e = Object.assign(new Error('refused'), { ...(r.body as { error: object }).error });
        throw e;
      })],
    ];
    for (const [how, attempt] of attempts) {
      const err = await refusal(attempt());
      assert.equal(err.code, 'VALIDATION_ERROR', `${how} ${url}`);
      assert.equal(err.statusCode, 400, `${how} ${url}`);
      assert.match(err.message, /loop/, `${how} ${url}`);
    }
  }
  const { data: bulk } = await t.api.call('bulkCreateLinks', { params, body: [{ url: 'https://example.com/fine' }, ...loops.map((url) => ({ url }))] });
  assert.equal(bulk[0].success, true);
  for (const r of bulk.slice(1)) {
    assert.equal(r.success, false, loops[r.index - 1]);
    if (!r.success) assert.equal(r.error.code, 'VALIDATION_ERROR');
  }
  const { data: still } = await t.api.call('getLink', { params: { ...params, linkId: link.id } });
  assert.equal(still.url, 'https://example.com/start');
  assert.equal(still.expiredUrl, null);
  // Another program on this machine (another port) is a fine destination.
  const other = `http://localhost:${Number(port) === 1 ? 2 : Number(port) - 1}/dev`;
  assert.equal((await t.api.call('createLink', { params, body: { url: other } })).data.url, other);
});

test('this machine by its own names loops too: its host name and what the hosts file points at loopback', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const port = new URL(`http://${SHORT_DOMAIN}`).port;
  // Judged by name, never resolved or contacted: the server compares with os.hostname() and /etc/hosts.
  const hostsNames = readHostsLoopbackNames();
  const names = [hostname(), `${hostname()}.`, hostname().toUpperCase(), ...hostsNames];
  for (const name of names) {
    const url = `http://${name}:${port}/x`;
    const err = await refusal(t.api.call('createLink', { params, body: { url } }));
    assert.equal(err.code, 'VALIDATION_ERROR', url);
    assert.match(err.message, /loop/, url);
  }
});

/** The names /etc/hosts gives 127.0.0.0/8 or ::1 on this machine (the server's, since tests run beside it). */
function readHostsLoopbackNames(): string[] {
  let text = '';
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    return address && (/^127\./.test(address) || address === '::1') ? names.filter((n) => n && !n.includes('localhost')) : [];
  });
}
