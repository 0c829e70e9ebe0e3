// SQLite adapter (better-sqlite3), WAL, synchronous=NORMAL. Two connections: the writer, used by
// transactions and by every statement that writes, and a read-only reader for plain reads. The
// driver is synchronous, so an async transaction on the writer could interleave with other
// callers' statements on that connection; writes therefore run under one process-wide mutex,
// transactions in groups that commit together (sqlite-group-commit.ts).
// Plain reads go to the reader without waiting: in WAL mode it sees the last commit and never
// a transaction in progress. Checkpoints run on a thread of their own (sqlite-checkpointer.ts).
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { Mutex } from '../shared/mutex.js';
import { storable, type Queryable, type SqlDriver, type SqlValue } from './driver.js';
import { startCheckpointer, type CheckpointerOptions } from './sqlite-checkpointer.js';
import { sqliteEraser } from './sqlite-erasure.js';
import { groupCommitter } from './sqlite-group-commit.js';

interface Prepared {
  statement: Database.Statement<SqlValue[]>;
  /** for each `?` in order, which `$n` parameter (0-based) it takes: $n may repeat */
  order: number[];
}

function statementCache(db: Database.Database) {
  const cache = new Map<string, Prepared>();
  return (sql: string): Prepared => {
    let prepared = cache.get(sql);
    if (!prepared) {
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_match, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      prepared = { statement: db.prepare(text) as Database.Statement<SqlValue[]>, order };
      cache.set(sql, prepared);
    }
    return prepared;
  };
}

/** NUL and lone surrogates become U+FFFD here as on PostgreSQL (driver.ts `storable`). */
const bind = (prepared: Prepared, params: SqlValue[]): SqlValue[] => prepared.order.map((i) => storable(params[i]));

function queryable(prepare: (sql: string) => Prepared): Queryable {
  return {
    dialect: 'sqlite',
    async all<T>(sql: string, params: SqlValue[] = []) {
      const p = prepare(sql);
      return p.statement.all(...bind(p, params)) as T[];
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      const p = prepare(sql);
      return p.statement.get(...bind(p, params)) as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      const p = prepare(sql);
      if (!p.statement.reader) return p.statement.run(...bind(p, params)).changes;
      // A statement with RETURNING yields one row per row written (as pg's rowCount counts them).
      return p.statement.all(...bind(p, params)).length;
    },
  };
}

export interface SqliteOptions {
  /** the checkpoint thread's settings (tests shorten them) */
  checkpoints?: CheckpointerOptions;
  log?: (line: string) => void;
}

export function openSqlite(file: string, options: SqliteOptions = {}): SqlDriver {
  const inMemory = file === ':memory:';
  if (!inMemory) fs.mkdirSync(path.dirname(file), { recursive: true });
  // A log left by a process that stopped before truncating it may hold a forgotten user's rows.
  const leftOver = !inMemory && fs.existsSync(`${file}-wal`) && fs.statSync(`${file}-wal`).size > 0;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Deleted rows are overwritten with zeros, not left in free space and free pages where a copy of
  // the file would still show them: forgetting a conversation must leave nothing to read back.
  db.pragma('secure_delete = ON');
  db.pragma('busy_timeout = 5000');
  // Each turn of a commit group runs in a savepoint (sqlite-group-commit.ts), and SQLite copies
  // every page a savepoint changes into a sub-journal first. By default that is a temporary file:
  // a write() per page, about 15% of a chat turn's CPU. In memory it costs a copy. Writer only:
  // the reader's large sorts (analytics) keep spilling to disk.
  db.pragma('temp_store = MEMORY');
  const reader = inMemory ? null : new Database(file, { readonly: true });
  reader?.pragma('busy_timeout = 5000');

  const prepareWrite = statementCache(db);
  const prepareRead = reader ? statementCache(reader) : prepareWrite;
  const writer = queryable(prepareWrite);
  const read = queryable(prepareRead);
  const lock = new Mutex();
  const checkpointer = inMemory ? null : startCheckpointer(db, file, options.checkpoints);
  const transaction = groupCommitter(db, writer, lock, checkpointer);
  const log = options.log ?? (() => undefined);
  const eraser = inMemory ? null : sqliteEraser(db, file, lock, checkpointer, log);
  if (leftOver) eraser?.erase().catch((error: Error) => log(`SQLite: the log left by the last run is not truncated: ${error.message}`));
  /** a write outside a transaction commits by itself: the checkpointer hears of it too */
  const write = <T>(work: () => Promise<T>) => lock.run(work).finally(() => checkpointer?.afterCommit());
  /** plain reads skip the writer's queue; anything that writes (UPDATE … RETURNING included) waits its turn */
  const isRead = (sql: string) => reader !== null && prepareWrite(sql).statement.readonly;

  return {
    dialect: 'sqlite',
    all: (sql, params) => (isRead(sql) ? read.all(sql, params) : write(() => writer.all(sql, params))),
    get: (sql, params) => (isRead(sql) ? read.get(sql, params) : write(() => writer.get(sql, params))),
    run: (sql, params) => write(() => writer.run(sql, params)),
    transaction,
    exec: (sql) => write(async () => void db.exec(sql)),
    withMigrationLock: (work) => work(),
    eraseDeleted: async () => {
      // The message index (migration 019) keeps a forgotten message's words in its segments even
      // with FTS5's secure-delete (test/e2e/forget-erasure.test.ts found them in its leaf pages):
      // 'optimize' writes the index anew without them, secure_delete zeroes the old pages, and the
      // TRUNCATE checkpoint below takes their copies out of the log. It costs a pass over the index
      // per forget; forgets are rare.
      await write(async () => {
        const indexed = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'message_search'").get();
        if (indexed) db.exec("INSERT INTO message_search(message_search) VALUES('optimize')");
      });
      await eraser?.erase();
    },
    close: async () => {
      eraser?.close();
      // the worker's connection first: the writer, closed last, then checkpoints what is left
      // and removes the WAL
      await checkpointer?.close();
      reader?.close();
      db.close();
    },
  };
}
