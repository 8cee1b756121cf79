// An entry past its TTL (the safety net for a missed notification) is still served, and read again
// in the background: were it dropped, every link warmed together would miss together once the
// TTL ran out, and every visit would wait for the database at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RedirectLink } from '../domain/links/redirect-links.js';
import { createLinkCache } from './link-cache.js';

const link = (url: string): RedirectLink => ({
  id: 'l1', workspaceId: 'w1', domain: 'hop.test', slug: 'a', url,
  expiresAt: null, expiredUrl: null, maxClicks: null, passwordHash: null, smart: null,
});

test('an entry past its TTL is served without waiting while it is read again, once', async () => {
  let current = link('https://example.com/old');
  let reads = 0;
  let answer!: () => void;
  const links = {
    find: async () => {
      reads++;
      if (reads > 1) await new Promise<void>((r) => (answer = r));
      return current;
    },
  };
  const cache = createLinkCache({ links, defaultDomain: 'hop.test', ttlMs: 20 });
  assert.equal((await cache.get('hop.test', 'a'))?.url, 'https://example.com/old');
  assert.equal(reads, 1);
  // The TTL runs out with nobody visiting (a real 20 ms: lru-cache reads performance.now()).
  await new Promise((r) => setTimeout(r, 40));
  current = link('https://example.com/new');
  assert.equal(cache.peek('hop.test', 'a')?.url, 'https://example.com/old', 'served as it was, no visitor waits');
  assert.equal((await cache.get('hop.test', 'a'))?.url, 'https://example.com/old');
  assert.equal(reads, 2, 'read again once, however many visits meanwhile');
  answer();
  await new Promise((r) => setImmediate(r));
  assert.equal(cache.peek('hop.test', 'a')?.url, 'https://example.com/new', 'the fresh read replaces it');
  assert.equal(reads, 2);
});

test('a link gone when read again leaves the cache; a change meanwhile keeps the stale read out', async () => {
  let exists = true;
  const links = { find: async () => (exists ? link('https://example.com/x') : null) };
  const cache = createLinkCache({ links, defaultDomain: 'hop.test', ttlMs: 20 });
  await cache.get('hop.test', 'a');
  await new Promise((r) => setTimeout(r, 40));
  exists = false;
  assert.ok(cache.peek('hop.test', 'a'));
  await new Promise((r) => setImmediate(r));
  assert.equal(cache.peek('hop.test', 'a'), undefined, 'deleted since: no longer served');

  const primed = cache.generation();
  cache.invalidate('other');
  assert.equal(cache.prime([link('https://example.com/p')], primed), 0, 'a warm-up read before a change is not kept');
  assert.equal(cache.prime([link('https://example.com/p')], cache.generation()), 1);
  assert.equal(cache.peek('hop.test', 'a')?.url, 'https://example.com/p');
});
