// The PostgreSQL adapter's COPY: rows PostgreSQL refuses fail the transaction instead of leaving
// the write (and the connection, and every later write) waiting forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { openPostgres } from './postgres.js';

test('a COPY whose rows PostgreSQL refuses rejects; the session then takes the next transaction', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database has its own COPY',
  timeout: 30_000,
}, async () => {
  const db = await openPostgres(process.env.DATABASE_URL!);
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

test('a report is planned without JIT, in a transaction of its own: the setting ends with it', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only: PGlite is built without LLVM',
}, async () => {
  // With tens of thousands of clicks waiting for the job, analytics passed the planner's JIT
  // thresholds and spent 45-750 ms compiling a 20-30 ms read (docs/archive/performance-findings.md).
  const db = await openPostgres(process.env.DATABASE_URL!);
  try {
    const [{ jit: before }] = await db.query<{ jit: string }>('show jit');
    assert.equal(before, 'on', "the test database's own setting (else this test proves nothing)");
    const reports = await Promise.all(Array.from({ length: 6 }, () => db.report<{ jit: string }>('show jit')));
    assert.deepEqual(reports.map(([r]) => r.jit), Array(6).fill('off'));
    // Reports run on the transaction sessions: every one of them is back to the database's setting.
    const after = await Promise.all(Array.from({ length: 4 }, () => db.transaction(async (tx) => {
      const [{ jit }] = await tx.query<{ jit: string }>('show jit');
      await tx.query('select pg_sleep(0.05)'); // holds its session, so the four take all four
      return jit;
    })));
    assert.deepEqual(after, Array(4).fill('on'));
  } finally {
    await db.close();
  }
});

/**
 * A loopback proxy to PostgreSQL that, once armed, cuts each new connection at its first statement
 * after the startup handshake (the first client message after the server's first ReadyForQuery).
 */
async function cuttingProxy(target: URL) {
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  let armed = false;
  let cuts = 0;
  const server = createServer((client) => {
    const cut = armed;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    clients.add(client);
    client.on('close', () => clients.delete(client));
    let pending = Buffer.alloc(0);
    let ready = false;
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('data', (chunk: Buffer) => {
      if (cut && !ready) {
        // Server messages: a type byte, then a length (itself included); 'Z' is ReadyForQuery.
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 5 && pending.length >= 1 + pending.readUInt32BE(1)) {
          if (pending[0] === 0x5a) ready = true;
          pending = pending.subarray(1 + pending.readUInt32BE(1));
        }
      }
      client.write(chunk);
    });
    // A reset, as a database going away mid-statement gives: the client's socket errors.
    client.on('data', (chunk: Buffer) => {
      if (!(cut && ready)) return upstream.write(chunk);
      cuts++;
      client.resetAndDestroy();
      upstream.destroy();
    });
    for (const s of [client, upstream]) {
      s.on('error', drop);
      s.on('close', () => {
        sockets.delete(s);
        drop();
      });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    /** Connections made from now on are cut at their first statement. */
    arm: (on: boolean) => (armed = on),
    /** Connections cut so far. */
    get cuts() {
      return cuts;
    },
    dropAll: () => [...sockets].forEach((s) => s.destroy()),
    /** Resets every connection now: their clients' sockets error (ECONNRESET), then close. */
    resetAll: () => [...clients].forEach((s) => s.resetAndDestroy()),
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

test('a connection lost at its first statement after a reconnect fails that statement, never the process', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only',
  timeout: 30_000,
}, async () => {
  const proxy = await cuttingProxy(new URL(process.env.DATABASE_URL!));
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on('unhandledRejection', onUnhandled);
  const db = await openPostgres(proxy.url);
  try {
    assert.deepEqual((await db.query('select 1 as n'))[0], { n: 1 });
    // The pool's connection goes; the next statement reconnects, and that connection is cut at its
    // first statement: postgres.js once sent its own query for the array types there, from a
    // promise nothing awaited, and its rejection ended the server.
    proxy.arm(true);
    proxy.dropAll();
    // The first statements may still meet the old connection, closing; a later one reconnects.
    for (let i = 0; proxy.cuts === 0 && i < 100; i++) await db.query('select 2').then(() => assert.fail('answered through a cut connection'), () => {});
    assert.ok(proxy.cuts > 0, 'a new connection was cut at its first statement');
    await new Promise((r) => setTimeout(r, 300));
    proxy.arm(false);
    assert.deepEqual((await db.query(`select array['a', 'b'] as tags`))[0], { tags: ['a', 'b'] }, 'arrays still parse');
    assert.deepEqual(unhandled, [], 'no rejection left unhandled');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await db.close();
    await proxy.close();
  }
});

test('a statement sent between a connection reset and its close is refused, not left waiting; the session then reconnects', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only',
  timeout: 30_000,
}, async () => {
  // postgres.js (3.4.9) takes a socket's error and its close in two turns of the event loop, and
  // left a statement sent in between waiting forever (patches/postgres+3.4.9.patch). In CI the
  // aggregation job's release of the click log's gate, or the click writer's BEGIN on the session
  // a failed transaction had just handed back, waited so when a test stopped its PostgreSQL: no
  // click was written again (test/fault/click-spool.test.ts).
  const proxy = await cuttingProxy(new URL(process.env.DATABASE_URL!));
  const db = await openPostgres(proxy.url);
  const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, new Promise<'still waiting'>((r) => setTimeout(r, ms, 'still waiting').unref())]);
  try {
    const outcome = await within(10_000, db.transaction(async (tx) => {
      const sleeping = tx.query('select pg_sleep(5)');
      setTimeout(() => proxy.resetAll(), 200);
      await sleeping.then(() => assert.fail('answered through a reset connection'), () => {});
      // At once, as a `finally` would: before postgres.js has seen the socket close.
      return tx.query('select 1').then(() => 'answered', (err: { code?: string }) => `refused (${err.code})`);
    }).then((r) => `committed: ${r}`, (err: { code?: string }) => `rolled back (${err.code})`));
    assert.match(outcome, /^rolled back/, 'the transaction failed, with its statements settled');
    // Each transaction session in turn, the one that lost its connection among them.
    const answers = await within(10_000, Promise.all(Array.from({ length: 8 }, (_, i) => db.transaction(async (tx) => (await tx.query<{ n: number }>('select $1::int as n', [i]))[0].n))));
    assert.deepEqual(answers, [0, 1, 2, 3, 4, 5, 6, 7]);
  } finally {
    await db.close();
    await proxy.close();
  }
});
