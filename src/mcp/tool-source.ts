// The bot's MCP servers as an agent turn sees them (agents/tool-sources.ts McpToolSource): tool
// lists cached per bot and server, listed again at most once a minute or after the server said
// `notifications/tools/list_changed`; connections kept open between turns (the server's event
// stream is where that notification arrives) and closed when idle. A server that fails is left out
// of the turn with its LastError set, and not tried again for a few seconds (a hanging server must
// not cost every turn its timeout). Every node keeps its own cache; the stored list and LastError
// are what the API shows.
import type { McpCallResult, McpTool, McpToolSource, McpToolsForTurn } from '../agents/tool-sources.js';
import type { Clock } from '../shared/clock.js';
import { failureText, McpConnection } from './connection.js';
import type { McpServerRecord } from './model.js';
import type { McpStorage } from './port.js';

/** A tool list is listed again after this long (agents.md: at most once a minute). */
export const TOOLS_REFRESH_MS = 60_000;
/** A server that failed is left out for this long before it is tried again. */
const RETRY_AFTER_MS = 10_000;
/** listing the tools at turn time (connect included) */
const LIST_TIMEOUT_MS = 5_000;
/** an open connection unused this long is closed */
const IDLE_MS = 5 * 60_000;
/** connections kept open on one node at most (the least recently used is closed first) */
const MAX_OPEN = 256;

interface Entry {
  key: string;
  /** the record this entry was made for: a PUT (here or on another node) starts a new entry */
  url: string;
  updatedAt: number;
  tools: McpTool[] | null;
  listedAt: number;
  /** the server said its list changed since it was listed */
  stale: boolean;
  failedAt: number | null;
  error: string | null;
  connection: Promise<McpConnection> | null;
  idle: NodeJS.Timeout | null;
}

export interface McpToolsDeps {
  store: McpStorage;
  clock: Clock;
  allowPrivateNetwork: boolean;
}

export class McpTools implements McpToolSource {
  /** by bot id and server name; a Map keeps insertion order, refreshed on use: the first is the least recently used */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: McpToolsDeps) {}

  /** Never throws: what cannot be listed is `unavailable`. */
  async toolsFor(botId: string, servers: readonly string[]): Promise<McpToolsForTurn> {
    const names = [...new Set(servers)];
    if (names.length === 0) return { tools: [], unavailable: [] };
    let stored: McpServerRecord[];
    try {
      stored = await this.deps.store.mcpServers.byBot(botId);
    } catch {
      // the database or the server key failed: the turn goes on without MCP tools
      return { tools: [], unavailable: names.map((server) => ({ server, error: "the bot's MCP servers could not be read" })) };
    }
    const records = new Map(stored.map((r) => [r.name, r]));
    const listed = await Promise.all(names.map((name) => this.toolsOf(name, records.get(name) ?? null)));
    const out: McpToolsForTurn = { tools: [], unavailable: [] };
    listed.forEach((result, i) => {
      if ('error' in result) out.unavailable.push({ server: names[i], error: result.error });
      else for (const tool of result.tools) out.tools.push({ server: names[i], tool });
    });
    return out;
  }

  /** Never throws: a failure is `ok: false` with why. */
  async call(botId: string, server: string, tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<McpCallResult> {
    const record = await this.deps.store.mcpServers.get(botId, server).catch(() => undefined);
    if (record === undefined) return { ok: false, text: "the bot's MCP servers could not be read" };
    if (!record) return { ok: false, text: `the bot has no MCP server named "${server}"` };
    const started = this.deps.clock.now();
    const entry = this.entryOf(record);
    const left = () => Math.max(1, timeoutMs - (this.deps.clock.now() - started));
    try {
      return await this.onSession(entry, record, left, (connection) => connection.call(tool, args, left()));
    } catch (error) {
      return { ok: false, text: await this.failed(entry, record, error) };
    }
  }

  /**
   * The connect of `PUT /bots/{APIKey}/mcp/{Name}`: a new connection to `url`, its tools listed.
   * Throws (the caller's MCP_UNREACHABLE) when the server does not answer MCP; the connection is
   * kept for the turns to come once `adopt` is called with the stored record.
   */
  async probe(url: string, headers: Record<string, string> | null): Promise<{ tools: McpTool[]; connection: McpConnection }> {
    let connection: McpConnection | null = null;
    try {
      connection = await McpConnection.open(url, headers, { allowPrivateNetwork: this.deps.allowPrivateNetwork, timeoutMs: LIST_TIMEOUT_MS });
      const tools = await connection.listTools(LIST_TIMEOUT_MS);
      return { tools, connection };
    } catch (error) {
      await connection?.close();
      throw new Error(failureText(error));
    }
  }

  /** The stored record of a PUT, with the connection and tools its probe made (listed `now`). */
  adopt(record: McpServerRecord, connection: McpConnection, tools: McpTool[]): void {
    this.drop(record.botId, record.name);
    const entry = this.entryOf(record);
    entry.tools = tools;
    entry.listedAt = record.updatedAt;
    entry.connection = Promise.resolve(connection);
    connection.onToolsChanged = () => void (entry.stale = true);
    this.touch(entry);
  }

  /** Closes what this node keeps for a server (deleted, or replaced by a PUT). */
  drop(botId: string, name: string): void {
    const key = keyOf(botId, name);
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.release(entry);
  }

  /** Closes every connection (shutdown). */
  async close(): Promise<void> {
    const open = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(open.map((e) => this.release(e)));
  }

  private async toolsOf(name: string, record: McpServerRecord | null): Promise<{ tools: McpTool[] } | { error: string }> {
    if (!record) return { error: `the bot has no MCP server named "${name}"` };
    const entry = this.entryOf(record);
    const now = this.deps.clock.now();
    if (entry.tools === null && entry.failedAt === null && record.lastError === null && now - record.toolsAt < TOOLS_REFRESH_MS) {
      // listed moments ago by another node (or before a restart): that list is as fresh as ours would be
      entry.tools = record.tools;
      entry.listedAt = record.toolsAt;
    }
    if (entry.tools !== null && !entry.stale && now - entry.listedAt < TOOLS_REFRESH_MS) return { tools: entry.tools };
    if (entry.failedAt !== null && now - entry.failedAt < RETRY_AFTER_MS) return { error: entry.error ?? 'the server did not answer' };
    try {
      const started = this.deps.clock.now();
      const left = () => Math.max(1, LIST_TIMEOUT_MS - (this.deps.clock.now() - started));
      const tools = await this.onSession(entry, record, left, (connection) => {
        entry.stale = false; // a change announced from here on is one this listing may not have seen
        return connection.listTools(left());
      });
      Object.assign(entry, { tools, listedAt: now, failedAt: null, error: null });
      // what the API shows; a failed write costs nothing of this turn
      await this.deps.store.mcpServers.noteTools(record.botId, record.name, tools, now).catch(() => undefined);
      return { tools };
    } catch (error) {
      return { error: await this.failed(entry, record, error) };
    }
  }

  /**
   * `use` on the entry's connection. A server that no longer knows our session (it restarted, or
   * expired it) answers 404 and runs nothing (the transport specification): `use` is then made
   * once more, over a new session, instead of failing this turn.
   */
  private async onSession<T>(entry: Entry, record: McpServerRecord, left: () => number, use: (connection: McpConnection) => Promise<T>): Promise<T> {
    const first = await this.connectionOf(entry, record, left());
    try {
      const result = await use(first);
      if (!first.sessionLost) return result;
    } catch (error) {
      if (!first.sessionLost) throw error;
    }
    return use(await this.connectionOf(entry, record, left()));
  }

  /** Records a failure: left out for a while here, LastError for the API. */
  private async failed(entry: Entry, record: McpServerRecord, error: unknown): Promise<string> {
    const text = failureText(error);
    Object.assign(entry, { tools: null, failedAt: this.deps.clock.now(), error: text });
    await this.release(entry);
    await this.deps.store.mcpServers.noteError(record.botId, record.name, text).catch(() => undefined);
    return text;
  }

  /** The entry of this record, a new one when the record changed since (a new URL or headers). */
  private entryOf(record: McpServerRecord): Entry {
    const key = keyOf(record.botId, record.name);
    const known = this.entries.get(key);
    if (known && known.url === record.url && known.updatedAt === record.updatedAt) return known;
    if (known) this.drop(record.botId, record.name);
    const entry: Entry = { key, url: record.url, updatedAt: record.updatedAt, tools: null, listedAt: 0, stale: false, failedAt: null, error: null, connection: null, idle: null };
    this.entries.set(key, entry);
    while (this.entries.size > MAX_OPEN) this.drop(...splitKey(this.entries.keys().next().value!));
    return entry;
  }

  /** The entry's open connection, or a new one (a closed one, after a failure or by the server, is replaced). */
  private async connectionOf(entry: Entry, record: McpServerRecord, timeoutMs: number): Promise<McpConnection> {
    for (;;) {
      const pending = entry.connection;
      if (pending) {
        const current = await pending.catch(() => null);
        if (current?.isOpen) return (this.touch(entry), current);
        // another caller replaced it while this one waited: use theirs
        if (entry.connection !== pending) continue;
      }
      const opening = McpConnection.open(record.url, record.headers, { allowPrivateNetwork: this.deps.allowPrivateNetwork, timeoutMs });
      entry.connection = opening;
      const connection = await opening;
      connection.onToolsChanged = () => void (entry.stale = true);
      this.touch(entry);
      return connection;
    }
  }

  /** Marks the entry used: last in the eviction order, its idle timer started again. */
  private touch(entry: Entry): void {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = setTimeout(() => void this.release(entry), IDLE_MS);
    entry.idle.unref();
  }

  private async release(entry: Entry): Promise<void> {
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = null;
    const connection = entry.connection;
    entry.connection = null;
    const open = connection ? await connection.catch(() => null) : null;
    await open?.close();
  }
}

const keyOf = (botId: string, name: string) => `${botId}\n${name}`;
const splitKey = (key: string) => key.split('\n') as [string, string];
