// The SQL port both databases implement. Repositories write one SQL text with $1, $2… placeholders
// that runs on SQLite and PostgreSQL alike; only DDL (migrations) differs per dialect.

export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | null;

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
  /** Held across processes during migrations (PostgreSQL advisory lock; SQLite has one writer). */
  withMigrationLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
