// The SQL port both databases implement. Repositories write one SQL text with $1, $2… placeholders
// that runs on SQLite and PostgreSQL alike; only DDL (migrations) differs per dialect.

export type Dialect = 'sqlite' | 'postgres';
/** Uint8Array: a BLOB on SQLite, bytea on PostgreSQL (vectors, migration 016). */
export type SqlValue = string | number | null | Uint8Array;

export interface Queryable {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<number>;
}

export interface SqlDriver extends Queryable {
  /** Runs `work` in one transaction: everything it wrote commits together or not at all. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs DDL (several statements). */
  exec(sql: string): Promise<void>;
  /**
   * Resolves once no copy of the rows deleted before the call is left in the database's files
   * (SQLite: the write-ahead log checkpointed and truncated, sqlite-erasure.ts; it keeps trying
   * until it can). PostgreSQL cannot promise that: it resolves at once (docs/limits.md).
   */
  eraseDeleted(): Promise<void>;
  /** Held across processes during migrations (PostgreSQL advisory lock; SQLite has one writer). */
  withMigrationLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The statements a chat turn runs (the principal's read, the turn's write): PostgreSQL keeps them
 * prepared on each connection, parsed and planned once instead of on every call. Only statements
 * with a fixed text and an explicit column list belong here (a prepared `SELECT *` fails after a
 * migration adds a column, until the connection is replaced).
 */
const preparedTexts = new Map<string, string>();

/** Marks `sql` as worth preparing; returns it unchanged. */
export function prepared(sql: string): string {
  if (!preparedTexts.has(sql)) preparedTexts.set(sql, `colloquy_${preparedTexts.size + 1}`);
  return sql;
}

/** The name a marked statement is prepared under, if it is marked. */
export const preparedName = (sql: string): string | undefined => preparedTexts.get(sql);
