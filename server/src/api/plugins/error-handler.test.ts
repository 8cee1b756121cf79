// The one error mapping turns the database's refusal of a NUL (22021 in text, 22P05 in JSON) into
// 400 VALIDATION_ERROR, on the embedded database and on PostgreSQL (DATABASE_URL) alike: input no
// check caught before it reached a query is still bad input, not a 500.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { Database } from '../../db/database.js';
import { openDatabase } from '../../db/open.js';
import { errorHandlerPlugin } from './error-handler.js';

let db: Database;
let dataDir: string;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hop-errmap-'));
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
});

after(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a NUL the database refuses, in text or in JSON, answers 400 in the contract\'s shape', async () => {
  const app = Fastify({ logger: false });
  await app.register(errorHandlerPlugin);
  app.get('/text', async () => db.query('select $1::text as v', ['a\u0000b']));
  app.get('/json', async () => db.query(`select '{"a":"\\u0000"}'::jsonb as v`));
  app.get('/other', async () => db.query('select 1/0'));
  for (const path of ['/text', '/json']) {
    const res = await app.inject({ method: 'GET', url: path });
    assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
    const body = res.json();
    assert.equal(body.success, false);
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.match(body.error.message, /NUL/);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/other' })).statusCode, 500, 'other database errors stay 500');
  await app.close();
});
