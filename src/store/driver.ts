// The SQL port both databases implement. Repositories write one SQL text with $1, $2… placeholders
// that runs on SQLite and PostgreSQL alike; only DDL (migrations) differs per dialect.

import { mapStrings } from '../shared/well-formed.js';

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

// What a text becomes on its way into either database (docs/decisions.md "Storage"): NUL and lone
// UTF-16 surrogates become U+FFFD, the replacement character. PostgreSQL's text cannot hold NUL
// and UTF-8 cannot encode a lone surrogate; SQLite would store both, so without one rule here the
// same document or message was stored on one database and a 500 on the other (issue 35, finding 4).
// JSON texts carry them as escapes (`\u0000`, `\ud800`: JSON.stringify writes both), which
// PostgreSQL refuses as soon as it reads a member as text (`->>`, json_to_recordset).
//
// Every parameter of every statement passes here, a chat turn's included, so the usual text costs
// three native scans and nothing else; a JSON text is parsed (and written again) only when it holds
// a NUL or surrogate escape.

/** A NUL or lone-surrogate escape, or one inside a JSON text held in a JSON string (`\\u0000`). */
const JSON_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/** A JSON text with its strings storable: members, keys and JSON texts nested in strings. */
function storableJson(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // not JSON: a typed `\u0000` is six ordinary characters, stored as they are
  }
  return JSON.stringify(mapStrings(parsed, storableText));
}

function storableText(value: string): string {
  let text = value;
  if (text.includes('\\u') && JSON_ESCAPE.test(text)) text = storableJson(text);
  if (!text.isWellFormed()) text = text.toWellFormed();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: PostgreSQL text cannot hold NUL, so it is replaced
  return text.includes('\u0000') ? text.replace(/\u0000/g, '\ufffd') : text;
}

/** `value` as both databases store it: NUL and lone surrogates (raw or JSON-escaped) as U+FFFD. */
export const storable = (value: SqlValue | undefined): SqlValue => (typeof value === 'string' ? storableText(value) : (value ?? null));
