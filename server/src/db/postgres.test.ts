// The PostgreSQL adapter's COPY: rows PostgreSQL refuses fail the transaction instead of leaving
// the write (and the connection, and every later write) waiting forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openPostgres } from './postgres.js';

test('a COPY whose rows PostgreSQL refuses rejects; the session then takes the next transaction', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database has its own COPY',
  timeout: 30_000,
}, async () => {
  const db = openPostgres(process.env.DATABASE_URL!);
  const table = `copy_refused_${randomBytes(4).toString('hex')}`;
  await db.exec(`create table ${table} (n int not null, label text)`);
  try {
    await assert.rejects(
      db.transaction((tx) => tx.copyIn(table, ['n', 'label'], '1\tfine\nnot a number\tbad\n')),
      /invalid input syntax for type integer/,
    );
    // Every transaction session is taken in turn: none is left waiting on the refused COPY.
    for (let i = 0; i < 8; i++) await db.transaction((tx) => tx.copyIn(table, ['n', 'label'], `${i}\tok\n`));
    const [{ count }] = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
    assert.equal(count, 8, 'the refused COPY wrote nothing; the later ones wrote their rows');
  } finally {
    await db.exec(`drop table ${table}`);
    await db.close();
  }
});
