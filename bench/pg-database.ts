// A throw-away PostgreSQL database for one benchmark run (the soak, the attack bench): created on
// the local server for the run and dropped however the run ends (children.ts onCleanup).
import crypto from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './children.js';

/** Creates `<prefix>_<random>` on `serverUrl` (127.0.0.1 only) and returns its URL. */
export async function createPgDatabase(serverUrl: string, prefix: string, say: (line: string) => void): Promise<string> {
  if (new URL(serverUrl).hostname !== '127.0.0.1') throw new Error(`the PostgreSQL server must be on 127.0.0.1, got ${serverUrl}`);
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  onCleanup(async () => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      say(`database ${name} dropped`);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  say(`database ${name} created on 127.0.0.1`);
  return url.toString();
}
