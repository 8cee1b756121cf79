import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blankLink } from './source-helpers.js';
import { importCounts, planImport, PASSWORD_TAG } from './plan.js';
import type { ImportedLink } from './types.js';

const rec = (slug: string, domain: string | null, url: string, more: Partial<ImportedLink> = {}): ImportedLink => ({ ...blankLink(slug, domain, url), ...more });
const existing = [
  { id: 'lnk_a', domain: 'hop.test', slug: 'same', url: 'https://example.com/same' },
  { id: 'lnk_b', domain: 'hop.test', slug: 'taken', url: 'https://example.com/other' },
  { id: 'lnk_c', domain: 'go.acme.test', slug: 'kept', url: 'https://example.com/kept' },
];
const opts = { customDomains: new Set(['go.acme.test']), onConflict: 'skip' as const };

test('a slug lands on its custom domain when the workspace has it, else on the default one, reported', () => {
  const [onCustom, moved, unknown] = planImport([
    rec('launch', 'go.acme.test', 'https://example.com/l'), rec('launch2', 'bit.ly', 'https://example.com/l2'), rec('x', null, 'https://example.com/x'),
  ], existing, opts);
  assert.deepEqual([onCustom.action, onCustom.domain, onCustom.domainChanged, onCustom.body?.domain], ['create', 'go.acme.test', false, 'go.acme.test']);
  assert.deepEqual([moved.action, moved.domain, moved.domainChanged, 'domain' in moved.body!], ['create', null, true, false]);
  assert.equal(unknown.domainChanged, false);
});

test('the same destination (as the URL parser writes it) is skipped, another is a conflict unless overwrite; two sources on one slug conflict', () => {
  const records = [
    rec('same', 'bit.ly', 'https://example.com/same'), rec('taken', 'bit.ly', 'https://example.com/mine'),
    rec('kept', 'go.acme.test', 'HTTPS://Example.COM/kept'), rec('dup', 'a.test', 'https://example.com/1'), rec('dup', 'b.test', 'https://example.com/2'),
  ];
  const items = planImport(records, existing, opts);
  assert.deepEqual(items.map((i) => i.action), ['skip', 'conflict', 'skip', 'create', 'conflict']);
  assert.equal(items[1].reason, 'the slug leads to https://example.com/other');
  assert.equal(items[4].reason, 'a.test/dup is imported to the same slug');
  const over = planImport(records, existing, { ...opts, onConflict: 'overwrite' });
  assert.equal(over[1].action, 'overwrite');
  assert.equal(over[1].linkId, 'lnk_b');
  assert.ok(!('slug' in over[1].body!) && !('domain' in over[1].body!), 'a PATCH keeps where the link is');
  assert.deepEqual(importCounts(over), { create: 1, overwrite: 1, skip: 2, conflict: 1, invalid: 0 });
});

test('what Hop cannot hold is left out and listed; a bad slug or destination cannot be imported', () => {
  const [long, bad, noUrl, locked] = planImport([
    rec('long', null, 'https://example.com/a', { title: 't'.repeat(300), tags: Array.from({ length: 22 }, (_, i) => `T${i}`), ios: 'javascript:alert(1)', clicks: 5, createdAt: '2020-01-01T00:00:00.000Z' }),
    rec('with.dot', null, 'https://example.com/b'),
    rec('ftp', null, 'ftp://example.com/c'),
    rec('locked', null, 'https://example.com/d', { passwordProtected: true, tags: ['a'] }),
  ], [], opts);
  assert.equal(long.action, 'create');
  assert.equal(long.body!.title!.length, 256);
  assert.equal(long.body!.tags!.length, 20);
  assert.equal(long.body!.importedClicks, 5);
  assert.equal(long.body!.originalCreatedAt, '2020-01-01T00:00:00.000Z');
  assert.ok(!('ios' in long.body!));
  assert.deepEqual(long.notCarried.map((n) => n.split(' ')[0]), ['tags', 'title', 'ios']);
  assert.equal(bad.action, 'invalid');
  assert.match(bad.reason!, /^slug: /);
  assert.equal(noUrl.action, 'invalid');
  assert.match(noUrl.reason!, /^url: /);
  assert.deepEqual(locked.body!.tags, [PASSWORD_TAG, 'a']);
  assert.equal(locked.passwordProtected, true);
});
