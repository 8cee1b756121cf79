// Link-password lockouts hold under concurrency (docs/api.md, The redirector): an attempt takes its place in
// the visitor's window before its hash is checked, so a burst of concurrent guesses checks at most
// 5 hashes a minute, and the right password sent at the end of the burst is locked out too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, BROWSER_UA, team } from '../helpers/api.js';

const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

function post(slug: string, password: string, ip: string) {
  return fetch(`${API_URL}/${slug}`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA.desktopChrome, 'x-forwarded-for': ip },
    body: new URLSearchParams({ password }).toString(),
  }).then(async (res) => ({ status: res.status, cookie: res.headers.get('set-cookie'), retryAfter: res.headers.get('retry-after'), body: await res.text() }));
}

test('150 concurrent wrong passwords check at most 5 hashes, and the right one at the end of the burst gets no cookie', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/burst-secret', password: 'the right one' },
  });
  const ip = randomIp();
  const burst = Array.from({ length: 150 }, (_, i) => post(link.slug, `wrong ${i}`, ip));
  // The right password goes at the end of the burst: once the server has turned one of it away
  // (the window is full), while the rest may still be in flight. Sent at once with the burst,
  // fetch's pool of connections gave no order, and it could arrive before the fifth wrong one.
  await Promise.race([Promise.all(burst), new Promise<void>((full) => burst.forEach((p) => p.then((a) => a.status === 429 && full())))]);
  const right = post(link.slug, 'the right one', ip);
  const answers = await Promise.all(burst);
  const last = await right;

  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  // At most the first four are told "wrong"; a check that finds the window full (others in flight
  // included) answers 429 at once.
  assert.equal((counts[401] ?? 0) + (counts[429] ?? 0), 150, JSON.stringify(counts));
  assert.ok((counts[401] ?? 0) <= 4, `at most 4 wrong answers before the lockout: ${JSON.stringify(counts)}`);
  assert.equal(last.status, 429, 'the right password at the end of the burst is locked out');
  assert.equal(last.cookie, null, 'no unlock cookie');
  assert.ok(Number(last.retryAfter) > 0 && Number(last.retryAfter) <= 60);
  assert.ok(!last.body.includes('burst-secret'));

  // Analytics count the hashes that were checked and found wrong: the fifth locks, so exactly 5.
  const { data } = await t.api.call('getLinkAnalytics', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.equal(data.failedPasswordAttempts, 5);
  // Another visitor is not locked out, and the right password unlocks for them.
  const other = await post(link.slug, 'the right one', randomIp());
  assert.equal(other.status, 302);
  assert.match(String(other.cookie), /^hop_pw_/);
});

test('a right password gives its place back: four failures and then ten successes do not lock the visitor out', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/ok-secret', password: 'the right one' },
  });
  const ip = randomIp();
  for (let i = 0; i < 4; i++) assert.equal((await post(link.slug, `wrong ${i}`, ip)).status, 401);
  for (let i = 0; i < 10; i++) assert.equal((await post(link.slug, 'the right one', ip)).status, 302, `right password ${i}`);
  assert.equal((await post(link.slug, 'wrong again', ip)).status, 429, 'the fifth failure locks');
});

/** An address of its own /64 for each test: the lockouts count an IPv6 client by its /64. */
const randomPrefix = () => `2001:db8:${[0, 0].map(() => Math.floor(Math.random() * 0xfffe + 1).toString(16)).join(':')}`;

test('an IPv6 client rotating through its /64 is one visitor: the sixth guess is locked out', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/v6-secret', password: 'the right one' },
  });
  const prefix = randomPrefix();
  const statuses: number[] = [];
  for (let i = 1; i <= 8; i++) statuses.push((await post(link.slug, `wrong ${i}`, `${prefix}::${i.toString(16)}`)).status);
  assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429, 429, 429], 'five checks, then the /64 is locked out');
  assert.equal((await post(link.slug, 'the right one', `${prefix}:ffff:ffff:ffff:fffe`)).status, 429, 'any address of the /64');
  const other = await post(link.slug, 'the right one', `${randomPrefix()}::1`);
  assert.equal(other.status, 302, 'another /64 is another visitor');
});

test('wrong passwords from many addresses together close the form to everyone for 10 minutes', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/many-sources', password: 'the right one' },
  });
  const statuses: number[] = [];
  // One guess from each of 54 clients, none near its own lockout.
  for (let i = 0; i < 54; i++) statuses.push((await post(link.slug, `wrong ${i}`, i % 2 ? randomIp() : `${randomPrefix()}::1`)).status);
  assert.deepEqual(statuses.slice(0, 49), Array(49).fill(401), 'forty-nine wrong answers');
  assert.deepEqual(statuses.slice(49), Array(5).fill(429), 'the fiftieth closes the form');
  const fresh = await post(link.slug, 'the right one', randomIp());
  assert.equal(fresh.status, 429, 'a new address with the right password waits too');
  const retryAfter = Number(fresh.retryAfter);
  assert.ok(retryAfter > 9 * 60 && retryAfter <= 10 * 60, `Retry-After ${retryAfter}`);
  assert.equal(fresh.cookie, null);
});
