// The MCP servers API (agents.md "MCP servers"): PUT connects and lists the tools before anything is
// stored (a URL that does not answer MCP: 400 MCP_UNREACHABLE), GET lists servers without their
// headers, DELETE forgets one. Headers are sealed at rest and never sent to a URL they were not
// given for: a PUT that changes the URL without Headers drops the stored ones.
import type { BotRecord } from '../bots/model.js';
import { checkPublicUrl } from '../integrations/http-call.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { MCP_LIMITS } from './model.js';
import type { McpStorage } from './port.js';
import type { McpTools } from './tool-source.js';

const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const HEADER_UNSAFE = /[\r\n\0]/;
/** Headers the transport sets itself: a stored one would break the protocol or the request. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);

export interface McpServerListing {
  Name: string;
  Url: string;
  Tools: Array<{ Name: string; Description: string }>;
  LastError: string | null;
}

export class McpServers {
  constructor(private readonly deps: { store: McpStorage; tools: McpTools; clock: Clock; allowPrivateNetwork: boolean }) {}

  async put(bot: BotRecord, name: string, body: { Url: string; Headers?: Record<string, string> }): Promise<Omit<McpServerListing, 'LastError'>> {
    if (!SERVER_NAME.test(name) || name.includes('__')) {
      throw new AppError('INVALID_REQUEST', 'An MCP server name is 1 to 32 letters, digits, "-" or "_", without "__" (tools are offered as <server>__<tool>).');
    }
    const url = await this.checkedUrl(body.Url);
    const { store, tools, clock } = this.deps;
    const existing = await store.mcpServers.get(bot.id, name);
    if (!existing && (await store.mcpServers.byBot(bot.id)).length >= MCP_LIMITS.perBot) {
      throw new AppError('MCP_SERVER_LIMIT', `A bot has at most ${MCP_LIMITS.perBot} MCP servers: delete one first.`);
    }
    // stored headers go only to the URL they were given for
    const headers = body.Headers !== undefined ? checkedHeaders(body.Headers) : existing?.url === url ? existing.headers : null;
    let probed: Awaited<ReturnType<McpTools['probe']>>;
    try {
      probed = await tools.probe(url, headers);
    } catch (error) {
      throw new AppError('MCP_UNREACHABLE', `${url} does not answer as an MCP server: ${(error as Error).message}`);
    }
    const now = clock.now();
    const record = { botId: bot.id, name, url, headers, tools: probed.tools, updatedAt: now };
    await store.mcpServers.put(record, now);
    tools.adopt({ ...record, toolsAt: now, lastError: null }, probed.connection, probed.tools);
    return { Name: name, Url: url, Tools: listed(probed.tools) };
  }

  async list(bot: BotRecord): Promise<McpServerListing[]> {
    return (await this.deps.store.mcpServers.byBot(bot.id)).map((s) => ({ Name: s.name, Url: s.url, Tools: listed(s.tools), LastError: s.lastError }));
  }

  /** Deleting a server the bot does not have is not an error (the end state is the one asked for). */
  async remove(bot: BotRecord, name: string): Promise<void> {
    await this.deps.store.mcpServers.remove(bot.id, name);
    this.deps.tools.drop(bot.id, name);
  }

  private async checkedUrl(text: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new AppError('INVALID_REQUEST', 'Url is not a URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('INVALID_REQUEST', 'Url must be http or https.');
    if (url.username || url.password) throw new AppError('INVALID_REQUEST', 'Url must not carry a user name or password: send them in Headers.');
    if (url.href.length > MCP_LIMITS.urlChars) throw new AppError('INVALID_REQUEST', `Url is at most ${MCP_LIMITS.urlChars} characters.`);
    // the same guard as a per-bot AI URL: a bot's designer may not reach the server's own network
    if (!this.deps.allowPrivateNetwork && !(await checkPublicUrl(url.href))) {
      throw new AppError('MCP_UNREACHABLE', `${url.host} is a private network address (or does not resolve): MCP servers must be public.`);
    }
    return url.href;
  }
}

function checkedHeaders(given: Record<string, string>): Record<string, string> | null {
  const entries = Object.entries(given);
  if (entries.length > MCP_LIMITS.headers) throw new AppError('INVALID_REQUEST', `At most ${MCP_LIMITS.headers} Headers.`);
  let chars = 0;
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw new AppError('INVALID_REQUEST', `"${name.slice(0, 64)}" is not a header name.`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new AppError('INVALID_REQUEST', `The ${name} header is the transport's own; it cannot be set.`);
    if (HEADER_UNSAFE.test(value) || value.length > MCP_LIMITS.headerValueChars) {
      throw new AppError('INVALID_REQUEST', `The ${name} header's value must be at most ${MCP_LIMITS.headerValueChars} characters, without line breaks.`);
    }
    chars += name.length + value.length;
  }
  if (chars > MCP_LIMITS.headersChars) throw new AppError('INVALID_REQUEST', `Headers are at most ${MCP_LIMITS.headersChars} characters in all.`);
  return entries.length === 0 ? null : Object.fromEntries(entries);
}

const listed = (tools: ReadonlyArray<{ name: string; description: string }>) => tools.map((t) => ({ Name: t.name, Description: t.description }));
