// The dialect loop: every suite that takes a database runs on SQLite, and on PostgreSQL when
// DATABASE_URL is set (and then fails, never skips, if that server does not answer). Each test
// server gets a database of its own: a temporary SQLite directory, or a fresh PostgreSQL schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

export function databaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The databases a browser suite runs on: SQLite, the server's default. Everything a page calls is
 * tested on both databases by the e2e suites, so a page's suite runs on PostgreSQL too only when
 * what it shows depends on the database: test/browser/journey takes the whole product path on each
 * (docs/testing.md "Databases").
 */
export function pageDatabases(): DatabaseKind[] {
  return ['sqlite'];
}

export interface TestDatabase {
  kind: DatabaseKind;
  dataDir: string;
  databaseUrl: string | null;
  drop(): Promise<void>;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-test-'));
  if (kind === 'sqlite') {
    return { kind, dataDir, databaseUrl: null, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const base = process.env.DATABASE_URL!;
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
