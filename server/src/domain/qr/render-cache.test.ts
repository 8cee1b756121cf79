// The QR render cache: bounded by bytes, refusing a render of over a quarter of its room, and
// dropping a link's renders when the link changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRenderCache } from './render-cache.js';

const render = (linkId: string, size: number) => ({ linkId, bytes: Buffer.alloc(size), contentType: 'image/png', filename: 'x.png' });

test('keeps the most recent renders within its bytes', () => {
  const c = createRenderCache(400);
  c.set('a', render('l1', 100));
  c.set('b', render('l1', 100));
  c.set('c', render('l2', 100));
  assert.ok(c.get('a')); // now the most recent
  c.set('d', render('l2', 100));
  c.set('e', render('l2', 100)); // over 400: the least recent ('b') goes
  assert.equal(c.get('b'), undefined);
  assert.ok(c.get('a'));
  assert.equal(c.get('big'), undefined);
  c.set('big', render('l3', 101));
  assert.equal(c.get('big'), undefined);
});

test("a link's change drops all of its renders and no other", () => {
  const c = createRenderCache(1000);
  c.set('a', render('l1', 10));
  c.set('b', render('l1', 10));
  c.set('c', render('l2', 10));
  c.invalidateLink('l1');
  assert.equal(c.get('a'), undefined);
  assert.equal(c.get('b'), undefined);
  assert.ok(c.get('c'));
});
