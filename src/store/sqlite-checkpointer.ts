// Checkpoints off the event loop. In WAL mode every COMMIT appends the pages it changed to the
// WAL, and a checkpoint copies them back into the database file. By default the writer does that
// itself in the COMMIT that crosses 1,000 WAL pages: a few milliseconds during which the one
// thread that serves every request does nothing else, every few dozen commit groups, about 8 µs
// of each chat turn's share of that thread.
//
// So the writer's automatic checkpoint is off, and a worker thread with a connection of its own
// (WORKER below) checkpoints after commits, at most once per `intervalMs`.
// Durability is SQLite's own either way: a checkpoint copies committed pages, and a crash during
// one is recovered from the WAL at the next open. If the thread cannot start or fails, the
// writer checkpoints by itself again, as before.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** Int32 slots shared with the worker. */
const SIGNAL = {
  /** bumped by the writer after each COMMIT; the worker sleeps on it */
  COMMITS: 0,
  /** set by the worker when the WAL is too long to wait for it to start over by itself */
  RESTART: 1,
  /** set to stop the worker */
  STOP: 2,
  /** set by the writer to ask for a checkpoint now (MODES: 1 PASSIVE, 2 TRUNCATE; sqlite-erasure.ts); the worker answers by message */
  ASKED: 3,
} as const;

const MODES = ['', 'PASSIVE', 'TRUNCATE'] as const;
export type CheckpointMode = 'PASSIVE' | 'TRUNCATE';

/** What `PRAGMA wal_checkpoint` answers: busy 1 when it could not finish, the WAL's frames, those copied. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface CheckpointerOptions {
  /** the shortest time between two checkpoints (default 100 ms) */
  intervalMs?: number;
  /**
   * The WAL length, in pages, past which the writer helps it start over (default 16,000: 64 MB).
   * That help is a checkpoint on the event loop, short (the worker has copied all but the last
   * few milliseconds) but a stall: at 4,000 pages it came every ~100 ms under load and showed in
   * the chat turns' p99 (16.3 ms against 14.0 ms at 16,000, the same throughput).
   */
  restartFrames?: number;
  /**
   * How long the worker's TRUNCATE waits for a reader to finish before it answers busy (default
   * 100 ms). The writer holds its writes back meanwhile, so this stays short: the caller retries.
   */
  truncateWaitMs?: number;
}

export interface Checkpointer {
  /** before the writer's BEGIN: lets a WAL that has grown too long start over */
  beforeBegin(): void;
  /** after the writer's COMMIT: wakes the worker */
  afterCommit(): void;
  /**
   * A checkpoint now, on the worker's connection: the event loop stays free. TRUNCATE copies every
   * frame into the database file and truncates the WAL to zero bytes; its caller holds the store's
   * write mutex, so that no writer takes part. The answer says whether it got through. Null when
   * the worker is not running.
   */
  checkpoint(mode: CheckpointMode): Promise<CheckpointResult> | null;
  close(): Promise<void>;
}

/**
 * The worker's program. It blocks on purpose (Atomics.wait): it is a thread of its own with
 * nothing else to do. Plain JavaScript, run with `eval`: a worker does not get the TypeScript
 * loader the tests run the sources with.
 *
 * PASSIVE checkpoints never wait for, nor hold up, the writer or the readers. What PASSIVE cannot
 * do alone under a steady write load is let the WAL start over: SQLite restarts it at the start of
 * a write transaction only when every frame has been copied, and the writer adds frames while the
 * worker copies. So when the WAL has grown past `restartFrames`, the worker asks the writer to
 * copy the few frames left itself, right before its next BEGIN (SIGNAL.RESTART). Commits that
 * arrive during a checkpoint wait for the next round, at least `intervalMs` later: a checkpoint
 * copies a page once however often the writer changed it, so fewer rounds copy less.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const { file, signals, intervalMs, restartFrames, truncateWaitMs, slot, modes } = workerData;
const shared = new Int32Array(signals);
const db = new Database(file, { fileMustExist: true, timeout: truncateWaitMs });
let seen = 0;
while (Atomics.load(shared, slot.STOP) === 0) {
  if (Atomics.wait(shared, slot.COMMITS, seen, 60000) === 'timed-out') continue;
  if (Atomics.load(shared, slot.STOP) !== 0) break;
  seen = Atomics.load(shared, slot.COMMITS);
  const asked = Atomics.exchange(shared, slot.ASKED, 0);
  if (asked !== 0) {
    try {
      parentPort.postMessage({ result: db.pragma('wal_checkpoint(' + modes[asked] + ')')[0] });
    } catch (error) {
      parentPort.postMessage({ error: String(error && error.message) });
    }
    continue;
  }
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  if (result && result.log >= restartFrames) Atomics.store(shared, slot.RESTART, 1);
  // a checkpoint asked for meanwhile ends the pause
  Atomics.wait(shared, slot.ASKED, 0, intervalMs);
}
db.close();
`;

export function startCheckpointer(db: Database.Database, file: string, options: CheckpointerOptions = {}): Checkpointer | null {
  const shared = new Int32Array(new SharedArrayBuffer(4 * 4));
  const data = {
    driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    file,
    signals: shared.buffer,
    slot: SIGNAL,
    modes: MODES,
    intervalMs: options.intervalMs ?? 100,
    restartFrames: options.restartFrames ?? 16_000,
    truncateWaitMs: options.truncateWaitMs ?? 100,
  };
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { eval: true, workerData: data });
  } catch (error) {
    process.emitWarning(`SQLite checkpoints stay on the event loop: ${(error as Error).message}`);
    return null;
  }
  db.pragma('wal_autocheckpoint = 0');
  let running = true;
  // the store is closed explicitly; a process that forgot to close it must still be able to exit
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = (why: string) => {
    if (!running) return;
    running = false;
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
    process.emitWarning(`SQLite checkpoints are back on the event loop: ${why}`);
  };
  // the worker answers requests in order, one at a time (sqlite-erasure.ts asks one after the other)
  const answers: Array<{ resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }> = [];
  worker.on('message', (message: { result?: CheckpointResult; error?: string }) => {
    const waiting = answers.shift();
    if (answers.length === 0 && running) worker.unref();
    if (message.result) waiting?.resolve(message.result);
    else waiting?.reject(new Error(message.error ?? 'no answer'));
  });
  const stopped = (why: string) => {
    for (const waiting of answers.splice(0)) waiting.reject(new Error(why));
    fallBack(why);
  };
  worker.once('error', (error) => stopped(error.message));
  worker.once('exit', (code) => stopped(`the checkpoint thread exited (${code})`));

  return {
    beforeBegin() {
      if (Atomics.load(shared, SIGNAL.RESTART) === 0) return;
      Atomics.store(shared, SIGNAL.RESTART, 0);
      // copies only what the worker has not yet: then this BEGIN finds every frame copied and
      // starts the WAL over
      db.pragma('wal_checkpoint(PASSIVE)');
    },
    afterCommit() {
      if (!running) return;
      Atomics.add(shared, SIGNAL.COMMITS, 1);
      Atomics.notify(shared, SIGNAL.COMMITS);
    },
    checkpoint(mode) {
      if (!running) return null;
      return new Promise<CheckpointResult>((resolve, reject) => {
        answers.push({ resolve, reject });
        // an answer awaited keeps the process up
        worker.ref();
        Atomics.store(shared, SIGNAL.ASKED, MODES.indexOf(mode));
        Atomics.add(shared, SIGNAL.COMMITS, 1);
        Atomics.notify(shared, SIGNAL.COMMITS);
        Atomics.notify(shared, SIGNAL.ASKED);
      });
    },
    async close() {
      running = false;
      // waited for: the process stays up until the worker has closed its connection
      worker.ref();
      Atomics.store(shared, SIGNAL.STOP, 1);
      Atomics.notify(shared, SIGNAL.COMMITS);
      Atomics.notify(shared, SIGNAL.ASKED);
      await exited;
    },
  };
}
