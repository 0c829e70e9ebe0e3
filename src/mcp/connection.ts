// One connection to an MCP server (agents.md "MCP servers"), made with the official SDK: Streamable
// HTTP (JSON-RPC over POST, answers as JSON or an event stream), `initialize` then `tools/list` and
// `tools/call`, the Mcp-Session-Id the server gives kept by the transport. Every call is bounded in
// time, every answer in bytes (integrations/stream-capped-fetch.ts); a call that times out or an answer over the cap
// closes the connection (a hanging stream must not stay open), and the next use opens a new one.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallResult, McpTool } from '../agents/tool-sources.js';
import { cutToBytes } from '../shared/utf8.js';
import { streamCappedFetch } from '../integrations/stream-capped-fetch.js';
import { MCP_LIMITS } from './model.js';

/** The protocol version the contract names; the SDK would offer its newest otherwise. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** tools/list pages followed at most (a server paging forever is cut here) */
const MAX_PAGES = 8;

export interface McpConnectOptions {
  allowPrivateNetwork: boolean;
  /** for the connect (initialize) */
  timeoutMs: number;
}

/** Why an MCP exchange failed, in words fit for LastError and a trace (no header, no body). */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return cutToBytes(message.replace(/\s+/g, ' ').trim() || 'the server did not answer MCP', MCP_LIMITS.errorChars);
}

export class McpConnection {
  private closed = false;
  /** why we closed it ourselves mid-exchange: what a failed call reports instead of "connection closed" */
  private closedBecause: string | null = null;
  private lostSession = false;
  /** told when the server says its tool list changed (notifications/tools/list_changed) */
  onToolsChanged: (() => void) | null = null;

  private constructor(private readonly client: Client) {}

  static async open(url: string, headers: Record<string, string> | null, options: McpConnectOptions): Promise<McpConnection> {
    // The SDK (with zod) is a few hundred modules: loaded by the first bot that uses an MCP
    // server, not by every start of the server (docs/performance.md "Start-up").
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js')]);
    let connection: McpConnection | null = null;
    // an answer over the cap ends the whole connection: what was waiting on it fails at once
    const fetch = streamCappedFetch(options.allowPrivateNetwork, MCP_LIMITS.answerBytes, () => {
      if (connection) connection.closedBecause ??= `the server's answer was over ${MCP_LIMITS.answerBytes} bytes`;
      void connection?.close();
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch,
      requestInit: { headers: headers ?? {} },
      // the standalone event stream (where list_changed arrives) is tried again twice at most
      reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
    });
    pinProtocolVersion(transport);
    const client = new Client({ name: 'colloquy', version: '1' }, { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => opened.onToolsChanged?.() } } });
    const opened = new McpConnection(client);
    connection = opened;
    client.onerror = () => undefined; // stream errors surface as failed requests; nothing to log
    // the transport ended (the server closed the session, our close): the next use reconnects
    client.onclose = () => void (opened.closed = true);
    // The SDK bounds the initialize request, not the notification that follows it: one deadline
    // for the whole connect, which closing the client (aborting its requests) enforces.
    const deadline = setTimeout(() => {
      opened.closedBecause ??= `the server did not finish connecting within ${options.timeoutMs} ms`;
      void opened.close();
    }, options.timeoutMs);
    try {
      await client.connect(transport, { timeout: options.timeoutMs, maxTotalTimeout: options.timeoutMs });
    } catch (error) {
      await opened.close();
      throw opened.closedBecause ? new Error(opened.closedBecause) : error;
    } finally {
      clearTimeout(deadline);
    }
    return opened;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * The server answered 404 to our session id: it no longer knows the session (it restarted, or
   * expired it) and ran nothing of that request (the transport specification), so the request may
   * be made again over a new session.
   */
  get sessionLost(): boolean {
    return this.lostSession;
  }

  /** The server's tools, at most MCP_LIMITS.tools, with names the model may call and bounded descriptions and schemas. */
  async listTools(timeoutMs: number): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    const deadline = Date.now() + timeoutMs;
    for (let page = 0; page < MAX_PAGES && tools.length < MCP_LIMITS.tools; page++) {
      const left = Math.max(1, deadline - Date.now());
      const listed = await this.bounded(() => this.client.listTools(cursor ? { cursor } : undefined, { timeout: left, maxTotalTimeout: left }));
      for (const tool of listed.tools) {
        const kept = keptTool(tool);
        if (kept && tools.length < MCP_LIMITS.tools) tools.push(kept);
      }
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** `tools/call`: the content's text cut to 16 KB; isError, a failure or the time running out → ok: false. Never throws. */
  async call(tool: string, args: Record<string, unknown>, timeoutMs: number): Promise<McpCallResult> {
    try {
      const result = await this.bounded(() => this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, maxTotalTimeout: timeoutMs }));
      const text = contentText((result as { content?: unknown }).content);
      return { ok: result.isError !== true, text: cutToBytes(text, MCP_LIMITS.resultBytes) };
    } catch (error) {
      return { ok: false, text: this.closedBecause ?? failureText(error) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close().catch(() => undefined);
  }

  /** A failed exchange (timeout, cut answer, dropped stream) leaves the session in doubt: closed. */
  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // the SDK's StreamableHTTPError carries the HTTP status as `code` (JSON-RPC codes are negative)
      if ((error as { code?: unknown }).code === 404) this.lostSession = true;
      await this.close();
      throw this.closedBecause ? new Error(this.closedBecause) : error;
    }
  }
}

/**
 * The SDK's client offers its newest protocol version in `initialize`; the contract pins 2025-06-18
 * (the server answers with it, or with an older one the SDK also speaks), so the offer is rewritten
 * on its way out. Everything after initialize follows what the server answered.
 */
function pinProtocolVersion(transport: StreamableHTTPClientTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'initialize' && message.params) {
      return send({ ...message, params: { ...message.params, protocolVersion: MCP_PROTOCOL_VERSION } }, options);
    }
    return send(message, options);
  };
}

function keptTool(tool: { name: string; description?: string; inputSchema: Record<string, unknown> }): McpTool | null {
  if (!TOOL_NAME.test(tool.name)) return null;
  const schema = JSON.stringify(tool.inputSchema ?? { type: 'object' });
  if (schema.length > MCP_LIMITS.schemaChars) return null;
  return { name: tool.name, description: (tool.description ?? '').slice(0, MCP_LIMITS.descriptionChars), parameters: JSON.parse(schema) as Record<string, unknown> };
}

/** The text of a tool's content: its text items (and embedded text resources), one per line. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const lines: string[] = [];
  let bytes = 0;
  for (const item of content as Array<Record<string, unknown>>) {
    const text =
      item?.type === 'text' && typeof item.text === 'string'
        ? item.text
        : item?.type === 'resource' && typeof (item.resource as { text?: unknown })?.text === 'string'
          ? String((item.resource as { text: string }).text)
          : typeof item?.type === 'string'
            ? `[${item.type}]`
            : '';
    lines.push(text);
    bytes += text.length;
    if (bytes > MCP_LIMITS.resultBytes) break;
  }
  return lines.join('\n');
}
