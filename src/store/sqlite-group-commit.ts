// Group commit for the SQLite writer. SQLite has one writer, and a turn's own statements cost
// little next to what every transaction pays whatever it wrote: BEGIN, COMMIT writing each
// changed page to the WAL in full (the usage row, the last page of messages and of its indexes
// are the same pages for every turn), and the checkpoints all those frames cause. So the
// transactions that arrive together (in one turn of the event loop) run in ONE SQLite
// transaction, each inside a savepoint of its own:
//
// - a transaction whose work throws rolls back to its savepoint: its writes go, its group mates'
//   stay, and it rejects with its own error;
// - nobody is answered before the group's COMMIT returned: every transaction of the group
//   resolves (or rejects, when the COMMIT fails) only then, so nothing is acknowledged before it
//   is as durable as a transaction of its own was (WAL, synchronous=NORMAL);
// - the group runs its works one after the other, in arrival order, as the mutex ran them: each
//   sees what the earlier ones of its group wrote, as if they had committed just before it.
//
// Plain reads go to the reader connection (sqlite.ts) and see the last COMMIT only, never a group
// under way. Turns of one conversation are serialized above this (turns.ts): the next turn of a
// conversation starts after the previous one was answered, hence after its group committed.
import type Database from 'better-sqlite3';
import type { Mutex } from '../shared/mutex.js';
import type { Queryable } from './driver.js';
import type { Checkpointer } from './sqlite-checkpointer.js';

interface Waiting {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A bound on how long one group holds the writer (and on what one failed COMMIT takes along). */
const MAX_GROUP = 64;

/** `checkpointer`: the writer's checkpoints, off the event loop (null: SQLite's own, in COMMIT) */
export function groupCommitter(db: Database.Database, writer: Queryable, lock: Mutex, checkpointer: Checkpointer | null) {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const savepoint = db.prepare('SAVEPOINT one_of_group');
  const release = db.prepare('RELEASE one_of_group');
  const rollbackTo = db.prepare('ROLLBACK TO one_of_group');
  const waiting: Waiting[] = [];
  let scheduled = false;

  // setImmediate, not a microtask: the group forms after the event loop has handed every request
  // that is ready to its handler, so that concurrent turns meet in one group; alone, a
  // transaction waits one loop turn.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void lock.run(commitGroup));
  };

  async function commitGroup(): Promise<void> {
    scheduled = false;
    const group = waiting.splice(0, MAX_GROUP);
    if (waiting.length > 0) schedule();
    if (group.length === 0) return;
    checkpointer?.beforeBegin();
    try {
      begin.run();
    } catch (error) {
      for (const one of group) one.reject(error);
      return;
    }
    const done: Array<{ one: Waiting; value: unknown }> = [];
    for (const [index, one] of group.entries()) {
      savepoint.run();
      let value: unknown;
      try {
        value = await one.work(writer);
      } catch (error) {
        if (!db.inTransaction) {
          // SQLite itself abandoned the transaction (I/O error, disk full): every write of the
          // group is gone. The finished ones fail with this error, the ones not yet run go first
          // into the next group.
          one.reject(error);
          for (const d of done) d.one.reject(error);
          waiting.unshift(...group.slice(index + 1));
          if (waiting.length > 0) schedule();
          return;
        }
        rollbackTo.run();
        release.run();
        one.reject(error);
        continue;
      }
      release.run();
      done.push({ one, value });
    }
    try {
      commit.run();
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const d of done) d.one.reject(error);
      return;
    }
    checkpointer?.afterCommit();
    for (const d of done) d.one.resolve(d.value);
  }

  return function transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });
  };
}
