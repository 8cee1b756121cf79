// The table of link fields and the link's schemas name the same fields: a property added to
// CreateLinkBodySchema without a row in LINK_FIELDS (or the other way round) fails here, and so
// does a stored field the link object does not return. test/in-process/link-fields.test.ts checks
// the columns against the database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APPLIED_LINK_FIELDS, LINK_FIELD_FLAGS, LINK_FIELDS, STORED_LINK_FIELDS } from './link-fields.js';
import { CreateLinkBodySchema, LinkSchema } from './links.js';

test('every settable property of a link has one row in the table, and every row is a property', () => {
  const names = LINK_FIELDS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length, 'a field listed twice');
  assert.deepEqual([...names].sort(), Object.keys(CreateLinkBodySchema.shape).sort());
});

test('stored fields are returned on the link object; write-only ones are not', () => {
  const returned = new Set(Object.keys(LinkSchema.shape));
  for (const f of LINK_FIELDS) assert.equal(returned.has(f.name), 'column' in f, `${f.name}: returned iff it has a column`);
  assert.equal(new Set(STORED_LINK_FIELDS.map((f) => f.column)).size, STORED_LINK_FIELDS.length, 'a column used twice');
});

test('flags and clear flags are unique, and a field cleared by a flag is set by one', () => {
  const flags = LINK_FIELDS.flatMap((f) => ['flag' in f ? f.flag : [], 'clearFlag' in f ? f.clearFlag : []].flat());
  assert.equal(new Set(flags).size, flags.length);
  for (const f of LINK_FIELDS) if ('clearFlag' in f) assert.ok('flag' in f && 'clearHelp' in f, f.name);
  assert.equal(LINK_FIELD_FLAGS.expiresAt, 'expires');
  assert.ok(APPLIED_LINK_FIELDS.includes('url') && !APPLIED_LINK_FIELDS.includes('password'));
});
