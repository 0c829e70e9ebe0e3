// Leaving no copy of deleted rows in SQLite's files (docs/limits.md "Forgetting"). `secure_delete`
// (sqlite.ts) zeroes what a DELETE removes, but the write-ahead log still holds the pages as they
// were before, in frames a PASSIVE checkpoint leaves in place, and in the part of the file beyond
// where the log last started over. Only a TRUNCATE checkpoint removes them: every frame copied
// into the database file (the zeroed pages last), then the log cut to zero bytes.
//
// That checkpoint cannot get through while another one runs (SQLite answers busy at once, without
// waiting) nor while a reader still uses an old frame. So:
// - it runs on the checkpoint thread (sqlite-checkpointer.ts), which checkpoints nothing else
//   meanwhile, with the store's write mutex held so that no writer adds frames: the event loop
//   stays free. Writes wait only for the frames of the last moment: the thread first copies the
//   rest with a PASSIVE checkpoint, writes going on (test/e2e/forget-large.test.ts on a busy
//   2-core machine: the TRUNCATE alone held writes 29-125 ms, after a PASSIVE 11-49 ms, mostly
//   the fsync of the database file);
// - its answer is checked (busy, and the -wal's size), and a failed try is retried with a growing
//   pause, the mutex released in between so that writes go on; after a few failures the log says
//   so, and it keeps trying until it gets through or the store closes;
// - the forgets that ask while one runs share the next one: each is answered by a checkpoint that
//   started after its DELETE committed.
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type { Mutex } from '../shared/mutex.js';
import type { CheckpointResult, Checkpointer } from './sqlite-checkpointer.js';

/** The first pause after a failed try; it doubles up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 20;
const MAX_DELAY_MS = 2_000;
/** Failed tries after which the log hears of it: about a second of trying. */
const WARN_AFTER = 6;

export interface Eraser {
  /** Resolves once the WAL has been checkpointed and truncated after this call; rejects when the store closes first. */
  erase(): Promise<void>;
  /** Stops trying: a pending erase rejects. Closing the last connection truncates the WAL anyway. */
  close(): void;
}

/** How long the writer waits for a reader in its own TRUNCATE (only without the checkpoint thread). */
const WRITER_WAIT_MS = 100;

export function sqliteEraser(db: Database.Database, file: string, lock: Mutex, checkpointer: Checkpointer | null, log: (line: string) => void): Eraser {
  let closed = false;
  let wake: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  /** Without the thread (it failed, or never started) the writer checkpoints, waiting shortly. */
  const truncateOnWriter = (): CheckpointResult => {
    db.pragma(`busy_timeout = ${WRITER_WAIT_MS}`);
    try {
      return (db.pragma('wal_checkpoint(TRUNCATE)') as CheckpointResult[])[0];
    } finally {
      db.pragma('busy_timeout = 5000');
    }
  };

  const walBytes = () => {
    try {
      return fs.statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };

  /** One try: why it did not get through, or null when it did. */
  const tryOnce = async (): Promise<string | null> => {
    await checkpointer?.checkpoint('PASSIVE');
    return lock.run(async () => {
      if (closed) return 'the store is closing';
      const result = await (checkpointer?.checkpoint('TRUNCATE') ?? truncateOnWriter());
      if (result.busy !== 0) return 'busy: a reader or another checkpoint holds the log';
      const left = walBytes();
      return left === 0 ? null : `the log still has ${left} bytes`;
    });
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => ((wake = null), resolve()), ms);
      timer.unref();
      wake = () => (clearTimeout(timer), (wake = null), resolve());
    });

  async function untilTruncated(): Promise<void> {
    for (let failures = 0; ; failures++) {
      if (closed) throw new Error('the store closed before the SQLite log was truncated');
      let why: string | null;
      try {
        why = await tryOnce();
      } catch (error) {
        why = (error as Error).message;
      }
      if (why === null) {
        if (failures >= WARN_AFTER) log(`SQLite: the write-ahead log is truncated, after ${failures + 1} tries`);
        return;
      }
      if (failures + 1 === WARN_AFTER) log(`SQLite: the write-ahead log still holds deleted rows (${why}); still trying`);
      await pause(Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures));
    }
  }

  function erase(): Promise<void> {
    if (!running) {
      running = untilTruncated().finally(() => (running = null));
      return running;
    }
    // this caller's DELETE may have committed after the running try began: the next one covers it
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return erase();
      });
    return next;
  }

  return {
    erase,
    close() {
      closed = true;
      wake?.();
    },
  };
}
