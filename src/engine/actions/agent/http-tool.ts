// An agent's `http` tool (agents.md "Tools"): the request callApi would make, built from the
// tool's templates over the variables and the model's arguments, and what the model reads back.
// The model steers the arguments, so each is encoded for where it lands: URL-encoded in the URL,
// JSON-escaped in a JSON body, stripped of line breaks in a header. The host of the URL comes from
// the template alone. The tool's own `{{secret.NAME}}` become slots that the request handler fills
// after the engine, for the secret's hosts only (secrets/substitution.ts), as callApi's do; no
// argument can spell one (a value's `{{` is broken up, and slot marks are stripped from values).
import { renderTemplate } from '../../../shared/template.js';
import { cutToBytes, utf8Bytes } from '../../../shared/utf8.js';
import type { EngineRequest, RequestAnswer } from '../../types.js';
import { toHttpAnswer } from '../callApi/index.js';
import { pickFromJson } from '../callApi/response-path.js';

export const DEFAULT_HTTP_TOOL_TIMEOUT_MS = 5_000;
/** What the model reads of a tool's result (agents.md). */
export const MAX_TOOL_RESULT_BYTES = 16 * 1024;

type Args = Record<string, unknown>;
/** As callApi renders a request: `{{secret.NAME}}` kept as a slot for the request handler. */
const REQUEST_TEMPLATE = { secretSlots: true } as const;
type HttpRequest = Extract<EngineRequest, { kind: 'http' }>;

const textOf = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value));
/** `{{` in a value becomes `{` + a zero-width break, so no later substitution sees a placeholder. */
const unplaceable = (text: string): string => text.replaceAll('{{', '{\u200b{');

function valuesFor(args: Args, encode: (value: unknown) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) out[name] = encode(value);
  return out;
}

const urlEncoded = (value: unknown) => encodeURIComponent(textOf(value));
/** Inside a JSON string the designer quoted: the escaped text without its quotes; other values as JSON. */
const jsonEncoded = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value ?? null)).replaceAll('{{', '{\\u007b');
const headerEncoded = (value: unknown) => unplaceable(textOf(value).replace(/[\r\n]+/g, ' '));

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

/** The request, or why it cannot be made (told to the model). */
export function httpToolRequest(request: Record<string, unknown>, args: Args, variables: Readonly<Record<string, string>>, timeoutMs: number): HttpRequest | { error: string } {
  const url = typeof request.url === 'string' ? request.url : '';
  const withArgs = renderTemplate(url, { ...variables, ...valuesFor(args, urlEncoded) }, REQUEST_TEMPLATE);
  const withoutArgs = renderTemplate(url, { ...variables, ...valuesFor(args, () => '') }, REQUEST_TEMPLATE);
  const host = hostOf(withArgs);
  if (host === null) return { error: 'the tool has no valid URL' };
  if (host !== hostOf(withoutArgs)) return { error: "the URL's host cannot come from an argument" };
  const method = (typeof request.method === 'string' ? renderTemplate(request.method, variables) : 'GET').toUpperCase() || 'GET';
  const headers: Record<string, string> = {};
  if (typeof request.headers === 'object' && request.headers !== null && !Array.isArray(request.headers)) {
    const values = { ...variables, ...valuesFor(args, headerEncoded) };
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = renderTemplate(value, values, REQUEST_TEMPLATE);
  }
  let body: string | null = null;
  if (typeof request.body === 'string') {
    body = renderTemplate(request.body, { ...variables, ...valuesFor(args, jsonEncoded) }, REQUEST_TEMPLATE);
  } else if (!['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) {
    // no body template: the arguments are the JSON body
    body = JSON.stringify(args).replaceAll('{{', '{\\u007b');
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  }
  return { kind: 'http', method, url: withArgs, headers, body, timeoutMs };
}

/** What the model reads: `{"status", "body"}` (JSON bodies as JSON), an error for a failure, cut to 16 KB. */
export function httpToolResult(answer: RequestAnswer | undefined, responsePath: string): { ok: boolean; text: string } {
  const http = toHttpAnswer(answer);
  if (typeof http.status !== 'number') return { ok: false, text: JSON.stringify({ error: http.status === 'TIMEOUT' ? 'the call timed out' : 'the call failed' }) };
  const raw = responsePath === '' ? http.body : (pickFromJson(http.body, responsePath) ?? '');
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // not JSON: the model reads the text
  }
  const ok = http.status >= 200 && http.status < 300;
  const result: Record<string, unknown> = ok ? { status: http.status, body } : { error: `HTTP ${http.status}`, status: http.status, body };
  const text = JSON.stringify(result);
  if (utf8Bytes(text) <= MAX_TOOL_RESULT_BYTES) return { ok, text };
  const { body: _whole, ...rest } = result;
  return { ok, text: JSON.stringify({ ...rest, body: cutToBytes(raw, MAX_TOOL_RESULT_BYTES - 200), truncated: true }) };
}
