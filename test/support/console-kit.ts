// Helpers for the operator console, share URL and conversation-control tests: operators and their
// session cookies, a Server-Sent Events reader, and direct reads of the test database (to prove
// that nothing of a forgotten conversation is left in any table).
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Client, Response } from './client.js';
import type { TestDatabase } from './databases.js';
import { ADMIN_TOKEN, type TestServer } from './server.js';

export const SESSION_COOKIE = 'colloquy_console';

/**
 * An operator of the account. Tests act as an `admin` (every console route) unless they test
 * roles; the server's own default, `agent`, is tested through the admin API directly.
 */
export async function addOperator(client: Client, accountId: string, email: string, password = 'correct horse battery', name = 'Ann Operator', role: 'agent' | 'designer' | 'admin' = 'admin') {
  const res = await client.post(`/admin/accounts/${accountId}/operators`, { Email: email, Name: name, Password: password, Role: role }, { token: ADMIN_TOKEN });
  assert.equal(res.status, 201, res.text);
  return res.body as { OperatorId: string; Email: string; Name: string; Role: string };
}

/** POST /console/api/login; returns the whole response. */
export function login(client: Client, body: Record<string, unknown>): Promise<Response> {
  return client.post('/console/api/login', body);
}

/** The session token from a login answer's Set-Cookie. */
export function sessionToken(res: Response): string {
  const cookie = res.headers.get('set-cookie') ?? '';
  const match = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(cookie);
  assert.ok(match, `a session cookie in ${cookie}`);
  return match[1]!;
}

/** Signs in and returns the Cookie header value for the next requests. */
export async function signIn(client: Client, email: string, password = 'correct horse battery', accountId?: string): Promise<string> {
  const res = await login(client, { Email: email, Password: password, ...(accountId ? { AccountId: accountId } : {}) });
  assert.equal(res.status, 200, res.text);
  return `${SESSION_COOKIE}=${sessionToken(res)}`;
}

/** A console API client holding one session cookie. */
export function consoleClient(client: Client, cookie: string) {
  const headers = { cookie };
  return {
    cookie,
    get: (p: string) => client.get(`/console/api${p}`, { headers }),
    post: (p: string, body: unknown = {}) => client.post(`/console/api${p}`, body, { headers }),
    conversationPath: (botId: string, userId: string) => `/conversations/${encodeURIComponent(botId)}/${encodeURIComponent(userId)}`,
  };
}

/** The bot's internal id, as the console names bots. */
export async function botIdOf(server: TestServer, botKey: string): Promise<string> {
  const bot = await server.running.store.bots.byApiKey(botKey);
  assert.ok(bot);
  return bot.id;
}

export interface EventStreamRead {
  status: number;
  contentType: string;
  events: any[];
  /** the stream ended (server side) before the reader stopped it */
  endedByServer: boolean;
  /** the non-JSON answer of a refused stream */
  body: string;
}

/**
 * Opens an event stream, collects the JSON events until `until` says enough (or the timeout),
 * then disconnects. `opened` runs once the stream is open: do what should produce events there.
 */
export async function readEvents(
  url: string,
  options: { headers?: Record<string, string>; until: (events: any[]) => boolean; opened?: () => Promise<unknown>; timeoutMs?: number },
): Promise<EventStreamRead> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 5000);
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...(options.headers ?? {}) }, signal: abort.signal });
  const result: EventStreamRead = { status: res.status, contentType: res.headers.get('content-type') ?? '', events: [], endedByServer: false, body: '' };
  if (!res.ok || !res.body) {
    clearTimeout(timer);
    result.body = await res.text();
    return result;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let opened = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        result.endedByServer = true;
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // `ready` is the stream's own signal, not a message (a page's onmessage does not see it);
        // other named events (the widget's `state`) are what the tests read.
        if (block.split('\n').some((l) => l === 'event: ready')) continue;
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (data) result.events.push(JSON.parse(data));
      }
      if (!opened) {
        opened = true;
        await options.opened?.();
      }
      if (options.until(result.events)) break;
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return result;
}

/** Read access to a test database, beside the server (another connection). */
export interface RawDatabase {
  all(sql: string, params?: unknown[]): Promise<any[]>;
  close(): Promise<void>;
}

export async function openRaw(database: TestDatabase): Promise<RawDatabase> {
  if (database.kind === 'sqlite') {
    const db = new Database(path.join(database.dataDir, 'colloquy.sqlite'), { fileMustExist: true });
    return {
      all: async (sql, params = []) => db.prepare(sql.replace(/\$\d+/g, '?')).all(...(params as any[])),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: database.databaseUrl! });
  await client.connect();
  return { all: async (sql, params = []) => (await client.query(sql, params)).rows, close: () => client.end() };
}

/** Every table of the database with its columns. */
async function tablesOf(raw: RawDatabase, kind: TestDatabase['kind']): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  if (kind === 'sqlite') {
    for (const { name } of await raw.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
      tables.set(
        name,
        (await raw.all(`PRAGMA table_info(${name})`)).map((c) => c.name),
      );
    }
  } else {
    for (const row of await raw.all('SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()')) {
      tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
    }
  }
  return tables;
}

/**
 * Rows anywhere in the database that belong to this conversation: in a table with a
 * `conversation_id` column, the rows with its id; with a `user_id` column, the rows with its user
 * id; in `conversations`, its row. Returns `table: count` for each table that still has some.
 */
export async function tracesOf(database: TestDatabase, conversationId: number, userId: string): Promise<Record<string, number>> {
  const raw = await openRaw(database);
  try {
    const found: Record<string, number> = {};
    for (const [table, columns] of await tablesOf(raw, database.kind)) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (columns.includes('conversation_id')) where.push(`conversation_id = $${params.push(conversationId)}`);
      if (columns.includes('user_id')) where.push(`user_id = $${params.push(userId)}`);
      if (table === 'conversations') where.push(`id = $${params.push(conversationId)}`);
      if (where.length === 0) continue;
      const [row] = await raw.all(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where.join(' OR ')}`, params);
      if (Number(row.n) > 0) found[table] = Number(row.n);
    }
    return found;
  } finally {
    await raw.close();
  }
}

/** Polls `check` until it returns true or `ms` pass; returns whether it did. */
export async function eventually(check: () => Promise<boolean>, ms = 5000, every = 50): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
