// The API's published surface: a change to the OpenAPI document must show up as a diff of
// openapi.snapshot.json. `UPDATE_SNAPSHOTS=1 npm test` rewrites it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { anonymous } from '../helpers/api.js';

const snapshotPath = new URL('./openapi.snapshot.json', import.meta.url);

/** The document without what changes from run to run: the server url holds a random port. */
function normalise(doc: Record<string, unknown>) {
  const servers = (doc.servers as { url: string }[] | undefined)?.map((s) => ({ ...s, url: s.url.replace(/:\d+(?=\/|$)/, ':PORT') }));
  return { ...doc, ...(servers ? { servers } : {}) };
}

test('the OpenAPI document matches its snapshot', async () => {
  const res = await anonymous.raw('GET', '/v1/openapi.json');
  assert.equal(res.status, 200);
  const actual = `${JSON.stringify(normalise(res.body as Record<string, unknown>), null, 2)}\n`;
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    writeFileSync(snapshotPath, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(snapshotPath, 'utf8');
  } catch {
    assert.fail('no snapshot yet: run UPDATE_SNAPSHOTS=1 npm test');
  }
  assert.deepEqual(JSON.parse(actual), JSON.parse(expected), 'the OpenAPI document changed: review it, then UPDATE_SNAPSHOTS=1 npm test');
});
