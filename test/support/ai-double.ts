// A local stand-in for an OpenAI-compatible Chat Completions endpoint (understanding.md "AI
// steps"): it answers what a test scripted, one script per call in order (else `fallback`), and
// records every request. A script can answer with content, a status (500...), a raw body
// (malformed JSON), a completion of any size made as it is sent, or hang past the caller's timeout.
// POST …/embeddings (OpenAI's API reference: {model, input: string | string[], encoding_format}
// → {object: "list", data: [{object: "embedding", index, embedding}], model, usage}) answers with
// concept vectors (concept-vectors.ts), or as `embeddingScripts` say (failures, hangs, bad shapes).
// Tool calls (agents.md) as OpenAI's Chat Completions reference shows them: the request's `tools`
// ([{type: "function", function: {name, description, parameters}}]) and `tool_choice`, an answer
// message with `tool_calls: [{id, type: "function", function: {name, arguments}}]` (arguments a
// JSON text) and finish_reason "tool_calls", then `role: "tool"` messages with `tool_call_id`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { streamChat, type StreamScript } from './ai-double-sse.js';
import { conceptVector } from './concept-vectors.js';

/** A request with `stream: true` is answered as OpenAI streams (ai-double-sse.ts), shaped by the StreamScript fields. */
export interface AiScript extends StreamScript {
  /** the assistant message's content (default "ok") */
  content?: string | null;
  /** HTTP status (default 200); anything else answers an OpenAI-style error body */
  status?: number;
  /** a raw body instead of a completion (malformed JSON, wrong shapes) */
  body?: string;
  /** wait this long before answering (a hang, for timeouts) */
  delayMs?: number;
  /** usage.total_tokens (default 17) */
  tokens?: number;
  /** a completion whose content is this many bytes of `fill`, generated while it is sent (never held whole) */
  contentBytes?: number;
  /** the character `contentBytes` repeats (default "a") */
  fill?: string;
  /** tool calls instead of text (content null unless given); an object `arguments` is sent as its JSON text */
  toolCalls?: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
}

/** A message as the client sent it: text, an assistant's tool calls, or a tool's result. */
export interface RecordedMessage {
  role: string;
  /** null at run time for an assistant message that only calls tools */
  content: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface RecordedAiRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: RecordedMessage[];
    max_tokens?: number;
    temperature?: number;
    input?: string | string[];
    tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>;
    tool_choice?: unknown;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
  };
}

/** How the next embeddings call answers (default: concept vectors). */
export interface EmbeddingScript {
  status?: number;
  body?: string;
  delayMs?: number;
}

export class AiDouble {
  readonly requests: RecordedAiRequest[] = [];
  /** bytes of the last `contentBytes` answer handed to the socket: a client that stops reading stops it */
  streamed = 0;
  private readonly queue: AiScript[] = [];
  fallback: AiScript = { content: 'ok' };
  /** scripts for the next embeddings calls, in order; then concept vectors */
  readonly embeddingScripts: EmbeddingScript[] = [];
  /** every embeddings call answers this while set (a provider that is down) */
  embeddingsDown: EmbeddingScript | null = null;

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<AiDouble> {
    const server = http.createServer();
    const double = new AiDouble(server);
    server.on('request', (req, res) => double.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return double;
  }

  /** The base URL a provider setting names (the client appends /chat/completions). */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Scripts for the next calls, in order. */
  next(...scripts: AiScript[]): void {
    this.queue.push(...scripts);
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.fallback = { content: 'ok' };
    this.embeddingScripts.length = 0;
    this.embeddingsDown = null;
  }

  /** The embeddings calls recorded, in order. */
  get embeddingRequests(): RecordedAiRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/embeddings'));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: RecordedAiRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      this.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      if ((req.url ?? '').endsWith('/embeddings')) return this.embeddings(res, body);
      const script = this.queue.shift() ?? this.fallback;
      const answer = () => {
        if (res.destroyed) return;
        const status = script.status ?? 200;
        res.setHeader('content-type', 'application/json');
        if (script.body !== undefined) return void res.writeHead(status).end(script.body);
        if (status !== 200) return void res.writeHead(status).end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        const tokens = script.tokens ?? 17;
        if (script.contentBytes !== undefined) return this.stream(res, body.model, script.contentBytes, script.fill ?? 'a', tokens);
        const tool_calls = script.toolCalls?.map((c, i) => ({
          id: c.id ?? `call_${this.requests.length}_${i}`,
          type: 'function',
          function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
        }));
        if (body.stream === true) {
          const content = tool_calls ? (script.content ?? null) : script.content === undefined ? 'ok' : script.content;
          const calls = tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) ?? null;
          return void streamChat(res, body, { content, toolCalls: calls, tokens }, script).catch(() => res.destroy());
        }
        if (tool_calls !== undefined) {
          const message = { role: 'assistant', content: script.content ?? null, tool_calls };
          return void res.writeHead(200).end(
            JSON.stringify({
              id: 'chatcmpl-test',
              object: 'chat.completion',
              created: 0,
              model: body.model,
              choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
              usage: { prompt_tokens: tokens - 2, completion_tokens: 2, total_tokens: tokens },
            }),
          );
        }
        res.writeHead(200).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: script.content === undefined ? 'ok' : script.content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: tokens - 2, completion_tokens: 2, total_tokens: tokens },
          }),
        );
      };
      if (script.delayMs) setTimeout(answer, script.delayMs).unref();
      else answer();
    });
  }

  private embeddings(res: http.ServerResponse, body: RecordedAiRequest['body']): void {
    const script = this.embeddingsDown ?? this.embeddingScripts.shift() ?? {};
    const answer = () => {
      if (res.destroyed) return;
      res.setHeader('content-type', 'application/json');
      const status = script.status ?? 200;
      if (script.body !== undefined) return void res.writeHead(status).end(script.body);
      if (status !== 200) return void res.writeHead(status).end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
      const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
      const tokens = inputs.reduce((n, text) => n + Math.max(1, Math.ceil(String(text).length / 4)), 0);
      res.writeHead(200).end(
        JSON.stringify({
          object: 'list',
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(String(text)) })),
          model: body.model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    };
    if (script.delayMs) setTimeout(answer, script.delayMs).unref();
    else answer();
  }

  /** A valid completion of `bytes` bytes of content, written chunk by chunk as the client reads. */
  private stream(res: http.ServerResponse, model: string, bytes: number, fill: string, tokens: number): void {
    this.streamed = 0;
    const head = `{"id":"chatcmpl-test","object":"chat.completion","created":0,"model":${JSON.stringify(model)},"choices":[{"index":0,"message":{"role":"assistant","content":"`;
    const tail = `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":${tokens - 2},"completion_tokens":2,"total_tokens":${tokens}}}`;
    const chunk = Buffer.from(fill.repeat(Math.ceil(65_536 / Buffer.byteLength(fill))));
    const double = this;
    function* pieces(): Generator<Buffer> {
      yield Buffer.from(head);
      for (let left = bytes; left > 0; left -= chunk.length) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        double.streamed += piece.length;
        yield piece;
      }
      yield Buffer.from(tail);
    }
    res.writeHead(200);
    Readable.from(pieces(), { objectMode: false }).pipe(res);
  }
}
