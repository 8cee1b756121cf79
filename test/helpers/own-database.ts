// A database of a test's own on the run's PostgreSQL, for a server that must be the only one to
// dispatch its deliveries: every other server of a run shares the run's database, and any of them
// that may reach loopback could take a delivery there. Embedded, a server's data directory is
// already its own, and this gives nothing.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export async function ownDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { env: {}, drop: async () => {} };
  const name = `hop_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: own.toString() },
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
