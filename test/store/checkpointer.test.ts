// SQLite checkpoints run on a thread of their own (sqlite-checkpointer.ts), not in the writer's
// COMMIT on the event loop. What must hold: committed pages reach the database file without the
// writer's help, the WAL does not grow without end under a steady write load, and closing the
// store leaves no WAL behind.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqlite } from '../../src/store/sqlite.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rows of `t` that the database file holds by itself, WAL aside: a copy of the file alone. */
function rowsInDatabaseFile(file: string, into: string): number {
  fs.copyFileSync(file, into);
  const copy = new Database(into, { readonly: true });
  try {
    const exists = copy.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'").get() as { n: number };
    return exists.n === 0 ? 0 : (copy.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  } catch (error) {
    // a copy taken while the checkpoint thread was writing the file: the caller looks again
    if ((error as { code?: string }).code === 'SQLITE_CORRUPT') return 0;
    throw error;
  } finally {
    copy.close();
  }
}

/** How many times the WAL has started over: the checkpoint sequence number in its header. */
function walRestarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = fs.openSync(`${file}-wal`, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header.readUInt32BE(12);
}

describe('SQLite checkpoints off the event loop', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-checkpoints-'));
    file = path.join(dir, 'colloquy.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('committed pages reach the database file although the writer never checkpoints', async () => {
    const db = openSqlite(file, { checkpoints: { intervalMs: 5 } });
    try {
      await db.exec('CREATE TABLE t (x INTEGER)');
      // 20 transactions: a few dozen WAL pages, far below the 1,000 of SQLite's own checkpoint
      for (let i = 0; i < 20; i++) await db.transaction((tx) => tx.run('INSERT INTO t VALUES ($1)', [i]));
      let rows = 0;
      for (let waited = 0; waited < 5_000 && rows < 20; waited += 20) {
        await sleep(20);
        rows = rowsInDatabaseFile(file, path.join(dir, 'copy.sqlite'));
      }
      assert.equal(rows, 20);
      assert.equal((await db.get<{ n: number }>('SELECT count(*) AS n FROM t'))?.n, 20);
    } finally {
      await db.close();
    }
  });

  test('under a steady write load the WAL starts over instead of growing', async () => {
    const db = openSqlite(file, { checkpoints: { intervalMs: 5, restartFrames: 8 } });
    let commits = 0;
    let restarts = 0;
    try {
      await db.exec('CREATE TABLE t (x INTEGER, blob TEXT)');
      // Back to back, a commit every event-loop turn: never idle with every page copied, the WAL
      // could not start over by itself. Writing stops once it has (or after 5 s: the failure).
      const until = Date.now() + 5_000;
      while (restarts === 0 && Date.now() < until) {
        for (let i = 0; i < 50; i++, commits++) await db.transaction((tx) => tx.run('INSERT INTO t VALUES ($1, $2)', [commits, 'x'.repeat(3_000)]));
        restarts = walRestarts(file);
      }
      assert.ok(restarts > 0, `the WAL never started over in ${commits} commits`);
    } finally {
      await db.close();
    }
    assert.equal(fs.existsSync(`${file}-wal`), false, 'closing the store removes the WAL');
    const reopened = new Database(file, { readonly: true });
    assert.equal((reopened.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, commits);
    reopened.close();
  });
});
