// The SQLite store's `eraseDeleted` (sqlite-erasure.ts): once it resolves, rows deleted before the
// call are in none of the files, even while the checkpoint thread works under a steady write load;
// and a write-ahead log left by a process that stopped before truncating it (a crash between a
// forget's DELETE and its truncation) is truncated when the next process opens the database,
// without anyone asking.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqlite } from '../../src/store/sqlite.js';

/** The files of `file` (itself, -wal, -shm) that hold `marker` as raw bytes. */
function filesHolding(file: string, marker: string): string[] {
  const dir = path.dirname(file);
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(path.basename(file)) && fs.readFileSync(path.join(dir, name)).includes(Buffer.from(marker)))
    .sort();
}

const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite: deleted rows leave the files', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-erasure-'));
    file = path.join(dir, 'colloquy.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('eraseDeleted under a steady write load: the marker is in no file once it resolves', async () => {
    const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
    const db = openSqlite(file, { checkpoints: { intervalMs: 1 } });
    try {
      await db.exec('CREATE TABLE t (x TEXT)');
      for (let i = 0; i < 200; i++) await db.transaction((tx) => tx.run('INSERT INTO t VALUES ($1)', [`${marker} `.padEnd(8_000, 'x')]));
      await db.run('DELETE FROM t');
      assert.ok(filesHolding(file, marker).includes('colloquy.sqlite-wal'), 'the log holds the rows before');
      // other writes go on all along: the checkpoint thread copies them while the log is truncated
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        while (writing) await db.transaction((tx) => tx.run('INSERT INTO t VALUES ($1)', [`other ${writes++}`.padEnd(4_000, 'y')]));
      })();
      await Promise.all([db.eraseDeleted(), db.eraseDeleted(), db.eraseDeleted()]);
      const left = filesHolding(file, marker);
      writing = false;
      await writer;
      assert.deepEqual(left, []);
      assert.ok(writes > 0);
      assert.equal((await db.get<{ n: number }>('SELECT count(*) AS n FROM t'))?.n, writes);
    } finally {
      await db.close();
    }
  });

  test('a log left behind by a stopped process is truncated when the next one opens the database', async () => {
    const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
    // The state a crash leaves between a forget's DELETE and its truncation: the rows deleted,
    // the log still holding them. Copied while the connection is open, so no close checkpoints it.
    const before = path.join(dir, 'before.sqlite');
    const writer = new Database(before);
    writer.pragma('journal_mode = WAL');
    writer.pragma('secure_delete = ON');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (x TEXT)');
    for (let i = 0; i < 50; i++) writer.prepare('INSERT INTO t VALUES (?)').run(`${marker} `.padEnd(8_000, 'x'));
    writer.exec('DELETE FROM t');
    fs.copyFileSync(before, file);
    fs.copyFileSync(`${before}-wal`, `${file}-wal`);
    writer.close();
    assert.deepEqual(filesHolding(file, marker), ['colloquy.sqlite-wal']);

    const db = openSqlite(file);
    try {
      // nothing is written, nothing asked: the store does it by itself (a bounded number of looks)
      for (let looks = 0; looks < 200 && (walBytes(file) > 0 || filesHolding(file, marker).length > 0); looks++) await sleep(25);
      assert.deepEqual(filesHolding(file, marker), []);
      assert.equal(walBytes(file), 0);
      assert.equal((await db.get<{ n: number }>('SELECT count(*) AS n FROM t'))?.n, 0);
    } finally {
      await db.close();
    }
  });
});
