import type { Config } from '../config.js';
import type { Database } from './database.js';

/** PostgreSQL when DATABASE_URL is set, else the embedded database. Drivers load lazily. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(config.databaseUrl);
  }
  const { openEmbedded } = await import('./embedded.js');
  return openEmbedded(config.dataDir);
}
