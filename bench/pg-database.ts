// A throw-away PostgreSQL database for one benchmark run (the soak, the attack bench, the in-process
// benches): created on the local server for the run and dropped when the run is done with it, or
// however the run ends (children.ts onCleanup).
import crypto from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './children.js';

export interface PgDatabase {
  url: string;
  /** Drops the database now (once; later calls do nothing). */
  drop(): Promise<void>;
}

async function withClient(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates `<prefix>_<random>` on `serverUrl` (127.0.0.1 only). */
export async function createPgDatabase(serverUrl: string, prefix: string, say: (line: string) => void): Promise<PgDatabase> {
  if (new URL(serverUrl).hostname !== '127.0.0.1') throw new Error(`the PostgreSQL server must be on 127.0.0.1, got ${serverUrl}`);
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  let dropped: Promise<void> | null = null;
  const drop = () => {
    dropped ??= withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {
      forget();
      say(`database ${name} dropped`);
    });
    return dropped;
  };
  const forget = onCleanup(drop);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  say(`database ${name} created on 127.0.0.1`);
  return { url: url.toString(), drop };
}
