// The OpenAPI document is generated from the shared route table: every route of it is there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routes } from '@hop/shared';
import { anonymous } from '../helpers/api.js';

type Doc = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> }>>; components: { securitySchemes: Record<string, unknown> } };

test('GET /v1/openapi.json is OpenAPI 3.1 and lists every route of the table', async () => {
  const res = await anonymous.raw('GET', '/v1/openapi.json');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const doc = res.body as Doc;
  assert.match(doc.openapi, /^3\.1\./);
  assert.equal(doc.info.title, 'Hop API');
  const missing: string[] = [];
  for (const [name, def] of Object.entries(routes)) {
    const path = def.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const op = doc.paths[path]?.[def.method.toLowerCase()];
    if (!op) {
      missing.push(`${def.method} ${path}`);
      continue;
    }
    assert.equal(op.operationId, name, `${def.method} ${path} is ${name}`);
    assert.ok(op.responses?.[String(def.status)], `${name} documents its ${def.status} answer`);
    if (def.auth === 'public') assert.deepEqual(op.security, [], `${name} is public`);
    else assert.ok((op.security ?? []).length > 0, `${name} names its credentials`);
  }
  assert.deepEqual(missing, [], 'every route of shared/src/routes.ts is in the document');
  // Operation ids are unique (a few routes, e.g. the QR image download, live beside the table).
  const opIds = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)).filter(Boolean);
  assert.equal(new Set(opIds).size, opIds.length);
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['adminToken', 'apiKey', 'bearer', 'oauthClientBasic']);
});

test('GET /docs answers an HTML page', async () => {
  let res = await anonymous.raw('GET', '/docs');
  for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) {
    res = await anonymous.raw('GET', new URL(String(res.headers.location), 'http://x/docs/').pathname);
  }
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.match(res.text, /<html/i);
});
