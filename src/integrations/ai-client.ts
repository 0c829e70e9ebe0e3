// One Chat Completions call to any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM,
// llama.cpp, LM Studio...) through the official `openai` client (docs/decisions.md "Understanding
// free text"). A bot's own base URL is chosen by its designer, so like callApi it goes through
// the private-network guard; the server-wide one is the operator's and trusted. One deadline
// bounds the whole call and nothing is retried: a turn waits at most `timeoutMs`, once.
import type OpenAI from 'openai';
import { fetch, Response, type Dispatcher } from 'undici';
import type { AgentModelAnswer, AgentToolSpec, AiAnswer } from '../engine/types.js';
import { streamedCompletion } from './ai-stream.js';
import { isPrivateLiteralUrl, MAX_RESPONSE_BYTES, outboundDispatcher, readCapped } from './http-call.js';
import { streamCappedFetch } from './stream-capped-fetch.js';
import { wellFormed } from '../shared/well-formed.js';

export interface AiProvider {
  baseUrl: string;
  model: string;
  /** '' when the endpoint wants none (a local Ollama) */
  apiKey: string;
  /** true for a bot's own URL: only public addresses may be dialled (unless the operator allows private ones) */
  guarded: boolean;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionOptions {
  maxTokens: number | null;
  temperature: number | null;
  timeoutMs: number;
  allowPrivateNetwork: boolean;
  /** set: the answer is asked for as a stream (`stream: true`) and each piece of its text is handed here as it arrives */
  onDelta?: (text: string) => void;
}

const ERROR: AiAnswer = { status: 'ERROR', text: '', tokens: 0 };

type OpenAiSdk = typeof import('openai');
let sdk: OpenAiSdk | null = null;

/**
 * The `openai` package, ~150 modules: loaded by the first call to a provider, not by every start
 * of the server (most bots call none; docs/performance.md "Start-up").
 */
async function openAiSdk(): Promise<OpenAiSdk> {
  sdk ??= await import('openai');
  return sdk;
}

/**
 * The official client for a provider, or null when a guarded provider names a private address.
 * The response body is capped at `maxBytes` (cappedFetch); nothing is retried.
 */
export async function providerClient(provider: AiProvider, timeoutMs: number, allowPrivateNetwork: boolean, maxBytes = MAX_RESPONSE_BYTES, streaming = false): Promise<OpenAI | null> {
  const guarded = provider.guarded && !allowPrivateNetwork;
  if (guarded && isPrivateLiteralUrl(provider.baseUrl)) return null;
  const { default: OpenAI } = await openAiSdk();
  return new OpenAI({
    baseURL: provider.baseUrl,
    // The client insists on a key; local servers ignore the header.
    apiKey: provider.apiKey === '' ? 'none' : provider.apiKey,
    maxRetries: 0,
    timeout: timeoutMs,
    // a streamed answer is counted as it arrives (read whole first, nothing could be shown before its end)
    fetch: (streaming ? streamCappedFetch(!guarded, maxBytes, () => undefined) : cappedFetch(outboundDispatcher(!guarded), maxBytes)) as unknown as typeof globalThis.fetch,
  });
}

/** Whether a failed call ran out of time (our deadline or the client's) rather than failed. */
export const timedOut = (error: unknown, abort: AbortController): boolean =>
  abort.signal.aborted || (sdk !== null && (error instanceof sdk.APIConnectionTimeoutError || error instanceof sdk.APIUserAbortError));

/** Never throws: a failure is TIMEOUT or ERROR. */
export async function chatCompletion(provider: AiProvider, messages: ChatMessage[], options: CompletionOptions): Promise<AiAnswer> {
  const client = await providerClient(provider, options.timeoutMs, options.allowPrivateNetwork, MAX_RESPONSE_BYTES, options.onDelta !== undefined);
  if (client === null) return ERROR;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const body = {
      model: provider.model,
      messages,
      ...(options.maxTokens !== null ? { max_tokens: options.maxTokens } : {}),
      ...(options.temperature !== null ? { temperature: options.temperature } : {}),
    };
    const { content, tokens } = options.onDelta
      ? await streamedCompletion(client, body, abort.signal, options.onDelta, 0).then((s) => ({ content: s.message.content as unknown, tokens: s.totalTokens }))
      : await client.chat.completions.create(body, { signal: abort.signal }).then((c) => ({ content: c?.choices?.[0]?.message?.content as unknown, tokens: Number(c?.usage?.total_tokens ?? 0) }));
    if (typeof content !== 'string') return { ...ERROR, tokens: Number.isFinite(tokens) ? tokens : 0 };
    // a model's JSON answer may carry a lone surrogate escape: U+FFFD, as for any text that comes in
    return { status: 'OK', text: wellFormed(content), tokens: Number.isFinite(tokens) && tokens > 0 ? tokens : 0 };
  } catch (error) {
    return timedOut(error, abort) ? { status: 'TIMEOUT', text: '', tokens: 0 } : ERROR;
  } finally {
    clearTimeout(timer);
  }
}

/** Statuses whose Response may carry no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The client's fetch: redirects are not followed (a public URL must not bounce the call to a
 * private address), and the body is read here, at most MAX_RESPONSE_BYTES of it, before the
 * client sees it (embeddings-client.ts passes a larger cap: vectors are big). A provider is any URL a tenant names: an answer of 400 MB used to be read whole,
 * parsed, said and stored (issue 22). Past the cap the connection is dropped and the client gets
 * a connection error, which is ERROR.
 */
export function cappedFetch(dispatcher: Dispatcher, maxBytes: number) {
  return async (url: string, init: Record<string, unknown>): Promise<Response> => {
    const res = await fetch(url, { ...init, dispatcher, redirect: 'manual' });
    const body = await readCapped(res.body, maxBytes);
    if (body === null) throw new Error(`the provider's answer is over ${maxBytes} bytes`);
    return new Response(NULL_BODY_STATUSES.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** A message of an agent turn as the Chat Completions API takes it (tool calls and their results). */
export type ToolChatMessage =
  | ChatMessage
  | { role: 'assistant'; content: string | null; tool_calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Tool calls read from one answer at most: the engine makes 10 and refuses the rest, each in a line of its trace. */
export const MAX_TOOL_CALLS_READ = 100;

/**
 * One Chat Completions call with OpenAI function `tools` (agents.md). Never throws. The answer is
 * the model's text or its `tool_calls` (at most MAX_TOOL_CALLS_READ; a call without an id gets one).
 */
export async function chatWithTools(provider: AiProvider, messages: ToolChatMessage[], tools: AgentToolSpec[], options: CompletionOptions): Promise<AgentModelAnswer> {
  const failed: AgentModelAnswer = { status: 'ERROR', text: '', toolCalls: [], tokens: 0 };
  const client = await providerClient(provider, options.timeoutMs, options.allowPrivateNetwork, MAX_RESPONSE_BYTES, options.onDelta !== undefined);
  if (client === null) return failed;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const body = {
      model: provider.model,
      messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
      ...(tools.length > 0 ? { tools: tools.map((t) => ({ type: 'function' as const, function: t })), tool_choice: 'auto' as const } : {}),
      ...(options.maxTokens !== null ? { max_tokens: options.maxTokens } : {}),
    };
    const answered = options.onDelta
      ? await streamedCompletion(client, body, abort.signal, options.onDelta, MAX_TOOL_CALLS_READ).then((s) => ({ message: s.message as unknown, total: s.totalTokens }))
      : await client.chat.completions.create(body, { signal: abort.signal }).then((c) => ({ message: c?.choices?.[0]?.message as unknown, total: Number(c?.usage?.total_tokens ?? 0) }));
    const tokens = Number.isFinite(answered.total) && answered.total > 0 ? answered.total : 0;
    const message = answered.message as { content?: unknown; tool_calls?: unknown } | undefined;
    if (message === undefined || message === null) return { ...failed, tokens };
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls.slice(0, MAX_TOOL_CALLS_READ) : [];
    const toolCalls = calls.map((call, index) => {
      const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
      const id = (call as { id?: unknown })?.id;
      return {
        id: typeof id === 'string' && id !== '' ? id.slice(0, 128) : `call_${index}`,
        name: typeof fn?.name === 'string' ? wellFormed(fn.name) : '',
        arguments: typeof fn?.arguments === 'string' ? wellFormed(fn.arguments) : typeof fn?.arguments === 'object' ? JSON.stringify(fn.arguments) : '',
      };
    });
    const text = typeof message.content === 'string' ? wellFormed(message.content) : '';
    return { status: 'OK', text, toolCalls, tokens };
  } catch (error) {
    return { ...failed, status: timedOut(error, abort) ? 'TIMEOUT' : 'ERROR' };
  } finally {
    clearTimeout(timer);
  }
}
