// A real MCP server on loopback, built with the official SDK's server classes (McpServer and the
// Streamable HTTP transport, one pair per session as the SDK's examples do), for the agents' MCP
// tests. Its tools: `find_customer` (an answer), `hang` (never answers until released), `huge` (an
// answer far over the client's cap), `fail` (isError). `addTool` registers a tool on every open
// session, which makes the SDK send notifications/tools/list_changed. Beside /mcp: /endless (an
// event stream that never ends) and /html (a web page, not MCP). It records what it was sent.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { closeDouble, listenOnLoopback } from './double-kit.js';

export interface McpSeen {
  method: string;
  headers: http.IncomingHttpHeaders;
  /** the JSON-RPC params (tools/call: name and arguments) */
  params: unknown;
}

export class McpTestServer {
  /** every JSON-RPC request and notification POSTed to /mcp, in order */
  readonly seen: McpSeen[] = [];
  /** bytes of text the `huge` tool answers */
  hugeBytes = 5 * 1024 * 1024;
  /** true: notifications/initialized is never answered (the connect hangs after initialize) */
  hangInitialized = false;
  private readonly sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  private readonly extraTools: string[] = [];
  private readonly hanging: http.ServerResponse[] = [];
  private releaseHang: () => void = () => undefined;
  private readonly hangReleased = new Promise<void>((resolve) => (this.releaseHang = resolve));

  private constructor(
    private readonly http: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<McpTestServer> {
    let me: McpTestServer | null = null;
    const { server, url } = await listenOnLoopback((req, res) => void me!.handle(req, res));
    me = new McpTestServer(server, url);
    return me;
  }

  get mcpUrl(): string {
    return `${this.url}/mcp`;
  }

  /** how many times a method was asked for */
  count(method: string): number {
    return this.seen.filter((s) => s.method === method).length;
  }

  /** A new tool on every open session: the SDK tells each client that the list changed. */
  addTool(name: string): void {
    this.extraTools.push(name);
    for (const { server } of this.sessions.values()) this.register(server, name);
  }

  /** Forgets every session, as a server that restarted or expired them: a request naming one gets 404 (the transport specification's "session not found"). */
  forgetSessions(): void {
    this.sessions.clear();
  }

  async close(): Promise<void> {
    this.releaseHang();
    for (const { transport } of this.sessions.values()) await transport.close().catch(() => undefined);
    await closeDouble(this.http, this.hanging);
  }

  private newServer(): McpServer {
    const server = new McpServer({ name: 'crm-double', version: '1.0.0' });
    server.registerTool('find_customer', { description: 'Find a customer by e-mail', inputSchema: { email: z.string() } }, async ({ email }) => ({
      content: [{ type: 'text', text: `customer ${email}: Ann Lee, gold` }],
    }));
    server.registerTool('hang', { description: 'Never answers' }, async () => {
      await this.hangReleased;
      return { content: [{ type: 'text', text: 'late' }] };
    });
    server.registerTool('huge', { description: 'Answers megabytes' }, async () => ({ content: [{ type: 'text', text: 'x'.repeat(this.hugeBytes) }] }));
    server.registerTool('fail', { description: 'Always fails' }, async () => ({ isError: true, content: [{ type: 'text', text: 'the CRM is down' }] }));
    server.registerTool('long_text', { description: 'Answers 40 KB' }, async () => ({ content: [{ type: 'text', text: 'é'.repeat(20_000) }] }));
    for (const name of this.extraTools) this.register(server, name);
    return server;
  }

  private register(server: McpServer, name: string): void {
    server.registerTool(name, { description: `added ${name}` }, async () => ({ content: [{ type: 'text', text: name }] }));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    if (path === '/endless') return this.endless(res);
    if (path === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Hello</body></html>');
    if (path !== '/mcp') return void res.writeHead(404).end();
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (!session) return void res.writeHead(404).end();
      return session.transport.handleRequest(req, res);
    }
    const body = await readJson(req);
    for (const message of Array.isArray(body) ? body : [body]) {
      if (message && typeof message === 'object' && 'method' in message) this.seen.push({ method: String(message.method), headers: req.headers, params: message.params });
    }
    if (this.hangInitialized && (body as { method?: string } | null)?.method === 'notifications/initialized') return void this.hanging.push(res);
    if (session) return session.transport.handleRequest(req, res, body);
    if (sessionId || !isInitializeRequest(body))
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
    const server = this.newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, server }),
    });
    transport.onclose = () => void (transport.sessionId && this.sessions.delete(transport.sessionId));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** An event stream that never ends: comments, a kilobyte at a time, until the client hangs up. */
  private endless(res: http.ServerResponse): void {
    this.hanging.push(res);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `: ${'z'.repeat(1024)}\n\n`;
    const write = () => {
      while (!res.destroyed && res.write(chunk)) {
        /* until the socket pushes back */
      }
    };
    res.on('drain', write);
    write();
  }
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}
