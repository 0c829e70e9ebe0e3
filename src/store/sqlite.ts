// SQLite adapter (better-sqlite3). One connection per process, WAL, synchronous=NORMAL. The
// driver is synchronous, so an async transaction could interleave with other callers' statements
// on the same connection; every statement therefore runs under one process-wide mutex.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { Mutex } from '../shared/mutex.js';
import type { Queryable, SqlDriver, SqlValue } from './driver.js';

type Statement = Database.Statement<Record<string, SqlValue>>;

export function openSqlite(file: string): SqlDriver {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');

  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      // $1 → @p1: better-sqlite3 binds named parameters from an object.
      statement = db.prepare(sql.replace(/\$(\d+)/g, '@p$1')) as Statement;
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: SqlValue[]): Record<string, SqlValue> => {
    const named: Record<string, SqlValue> = {};
    params.forEach((value, i) => {
      // PostgreSQL cannot store NUL in text; refusing it here too keeps both databases alike.
      if (typeof value === 'string' && value.includes('\u0000')) throw new Error('text values may not contain NUL characters');
      named[`p${i + 1}`] = value;
    });
    return named;
  };
  const direct: Queryable = {
    dialect: 'sqlite',
    async all<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).all(bind(params)) as T[];
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).get(bind(params)) as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      const statement = prepare(sql);
      if (!statement.reader) return statement.run(bind(params)).changes;
      // A statement with RETURNING yields one row per row written (as pg's rowCount counts them).
      return statement.all(bind(params)).length;
    },
  };
  const lock = new Mutex();

  return {
    dialect: 'sqlite',
    all: (sql, params) => lock.run(() => direct.all(sql, params)),
    get: (sql, params) => lock.run(() => direct.get(sql, params)),
    run: (sql, params) => lock.run(() => direct.run(sql, params)),
    transaction: (work) =>
      lock.run(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    exec: (sql) => lock.run(async () => void db.exec(sql)),
    withMigrationLock: (work) => work(),
    close: async () => void db.close(),
  };
}
