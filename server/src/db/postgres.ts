import postgres from 'postgres';
import type { Database, Queryable } from './database.js';

/** PostgreSQL through postgres.js, when DATABASE_URL is set. */
export function openPostgres(url: string): Database {
  const sql = postgres(url, {
    max: 10,
    onnotice: () => {},
    // int8 (counts, sums) as numbers, as PGlite returns them.
    types: { bigint: { to: 20, from: [20], parse: (v: string) => Number(v), serialize: (v: number) => String(v) } },
    connection: { application_name: 'hop-server' },
  });
  const wrap = (s: postgres.Sql | postgres.TransactionSql): Queryable => ({
    async query<T>(text: string, params: unknown[] = []) {
      return (await s.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as T[];
    },
    async exec(script: string) {
      await s.unsafe(script);
    },
  });
  const base = wrap(sql);
  return {
    kind: 'postgres',
    query: base.query,
    async transaction(fn) {
      return (await sql.begin((tx) => fn(wrap(tx)))) as never;
    },
    exec: base.exec,
    async listen(channel, onMessage, onListen) {
      const sub = await sql.listen(channel, onMessage, onListen);
      return async () => sub.unlisten();
    },
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
