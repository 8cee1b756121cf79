// Migration 045 splits each month of the click log by link (16 hash partitions), so a link's
// analytics read only its sixteenth of the clicks not rolled up yet. A month that already holds
// clicks when it runs stays whole, keeping them; empty months, and every month of a new install,
// are split. On a fresh database of its own: embedded, or on the PostgreSQL server of
// DATABASE_URL when it is set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadMigrations, migrate } from './migrate.js';
import { openDatabase } from './open.js';
import type { Database } from './database.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hop-split-'));
const serverUrl = process.env.DATABASE_URL;
const scratchName = `hop_split_${process.pid}_${Date.now()}`;
let admin: postgres.Sql | undefined;
let db: Database;

before(async () => {
  let databaseUrl: string | undefined;
  if (serverUrl) {
    admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${scratchName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${scratchName}`;
    databaseUrl = url.toString();
  }
  db = await openDatabase({ databaseUrl, dataDir });
});
after(async () => {
  await db.close();
  if (admin) {
    await admin.unsafe(`drop database if exists ${scratchName}`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const monthName = (d: Date) => `clicks_p${d.toISOString().slice(0, 7).replace('-', '')}`;

/** Each month partition of the log: whether it is split, and into how many. */
async function months() {
  const rows = await db.query<{ name: string; kind: string; parts: number }>(
    `select c.relname as name, c.relkind::text as kind,
       (select count(*)::int from pg_inherits s where s.inhparent = c.oid) as parts
     from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'clicks'::regclass and c.relname ~ '^clicks_p[0-9]{6}$'`,
  );
  return new Map(rows.map((r) => [r.name, r]));
}

const insertClick = (at: Date, linkId: string) => db.query(
  `insert into clicks (link_id, workspace_id, source, clicked_at, visitor_hash, is_bot) values ($1, 'ws_split', 'link', $2, 'v', false)
   returning tableoid::regclass::text as part`,
  [linkId, at],
);

test('a month holding clicks stays whole and keeps them; empty months are split by link into 16, and clicks land in their link\'s part', async () => {
  await migrate(db, loadMigrations().filter((m) => m.version < 45));
  const now = new Date();
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15));
  await insertClick(now, 'lnk_before');

  await migrate(db);
  const after45 = await months();
  assert.equal(after45.get(monthName(now))?.kind, 'r', 'the month with a click is still one table');
  assert.equal(after45.get(monthName(nextMonth))?.kind, 'p', 'the month ahead is partitioned');
  assert.equal(after45.get(monthName(nextMonth))?.parts, 16, 'into 16');
  const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from clicks where link_id = 'lnk_before'`);
  assert.equal(n, 1, 'the click written before the migration is kept');

  // Clicks of one link go to one part of the month; the parts are hash partitions of the link id.
  const parts = new Set<string>();
  for (let i = 0; i < 5; i++) parts.add((await insertClick(new Date(nextMonth.getTime() + i * 1000), 'lnk_same'))[0].part as string);
  assert.equal(parts.size, 1, `one link's clicks in one part: ${[...parts].join(', ')}`);
  assert.match([...parts][0], new RegExp(`^${monthName(nextMonth)}_l\\d{2}$`));
  const spread = new Set<string>();
  for (let i = 0; i < 64; i++) spread.add((await insertClick(nextMonth, `lnk_${i}`))[0].part as string);
  assert.ok(spread.size >= 8, `64 links spread over ${spread.size} of the 16 parts`);

  // The partitions job makes months ahead split too.
  await db.query('select hop_ensure_click_partitions($1, 6)', [now]);
  const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 5, 1));
  assert.equal((await months()).get(monthName(later))?.parts, 16);
});
