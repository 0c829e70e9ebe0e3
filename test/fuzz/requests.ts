// One hostile request, as generated (data only, so fast-check can print and shrink it), how it is
// sent against the fixture's current ids, and what every answer to it must be (api.md
// Conventions): never a 5xx, an error is JSON `{Code, Message}` with a catalogue code at the
// catalogue's status, and X-Request-Id is always there.
import { errorCatalogue } from '../../src/shared/errors.js';
import { ADMIN_TOKEN } from '../support/server.js';
import { accessOf, fillPath, label, type RouteInfo } from '../support/routes.js';
import type { AuthSpec, BodySpec } from './arbitraries.js';
import type { World } from './world.js';

export interface HostileRequest {
  route: RouteInfo;
  /** path parameters replaced by these (already URL-encoded, or broken on purpose) */
  params?: Partial<Record<string, string>>;
  /** a query string, without `?` */
  query?: string;
  /** the route's own credential when absent */
  auth?: AuthSpec;
  headers?: Partial<Record<string, string>>;
  body?: BodySpec;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  /** an event stream was opened (and closed again by the sender) */
  stream: boolean;
}

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** Placeholders in generated values become the fixture's current ids. */
function fill(text: string, world: World): string {
  return text
    .replaceAll('@@USER@@', world.ours.userId)
    .replaceAll('@@WEBUSER@@', world.ours.webUserId)
    .replaceAll('@@THEIRUSER@@', world.theirs.userId)
    .replaceAll('@@BOTKEY@@', world.ours.tenant.botKey);
}

/** Header values as HTTP can carry them (Latin-1, no CR/LF/NUL, no outer whitespace). */
const headerSafe = (value: string) =>
  value
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')
    .trim()
    .slice(0, 8000);

function credentialValue(spec: AuthSpec, world: World): string | null {
  const o = world.ours;
  const token = o.tenant.accountToken;
  switch (spec.credential) {
    case 'none':
      return null;
    case 'admin':
      return ADMIN_TOKEN;
    case 'account':
      return token;
    case 'bot':
      return o.tenant.botToken;
    case 'theirAccount':
      return world.theirs.tenant.accountToken;
    case 'theirBot':
      return world.theirs.tenant.botToken;
    case 'accountKey':
      return o.tenant.accountKey;
    case 'botKey':
      return o.tenant.botKey;
    case 'botSecret':
      return o.tenant.botSecret;
    case 'webKey':
      return o.webKey;
    case 'session':
      return o.session;
    case 'theirSession':
      return world.theirs.session;
    case 'share':
      return o.shareCode;
    case 'tampered':
      return `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    case 'algNone': {
      const [, payload] = token.split('.');
      return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    }
    case 'garbage':
      return 'garbage';
    case 'basic':
      return 'Zm9vOmJhcg==';
    case 'twoTokens':
      return `${token} ${o.tenant.botToken}`;
    case 'huge':
      return 'x'.repeat(7000);
    default:
      return null;
  }
}

function authHeaders(request: HostileRequest, world: World): Record<string, string> {
  const access = accessOf(request.route);
  if (!request.auth || request.auth.credential === 'right') return world.credentialHeaders(access);
  const value = credentialValue(request.auth, world);
  if (value === null) return {};
  if (request.auth.as === 'cookie') return { cookie: `colloquy_console=${value}` };
  return { authorization: request.auth.credential === 'basic' ? `Basic ${value}` : `Bearer ${value}` };
}

/** The request as it goes on the wire, with the fixture's ids in it. */
export function resolve(request: HostileRequest, world: World): Sent {
  const context = world.context();
  const template = request.route.template;
  let path = template.replace(/\{([^}]+)\}/g, (whole, name: string) => request.params?.[name] ?? fillPath(whole, context));
  if (request.query !== undefined) path += `?${fill(request.query, world)}`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = headerSafe(fill(value, world));
  for (const [name, value] of Object.entries(request.body?.headers ?? {})) headers[name] = value;
  Object.assign(headers, authHeaders(request, world));
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (request.body && request.route.method !== 'GET') {
    body = typeof request.body.payload === 'string' ? fill(request.body.payload, world) : Uint8Array.from(request.body.payload);
    if (request.body.contentType !== undefined) headers['content-type'] = headerSafe(request.body.contentType);
  }
  return { method: request.route.method, path, headers, body };
}

/** Sends it; an event stream that opens is closed at once (it would never end). */
export async function send(world: World, sent: Sent): Promise<Answer> {
  const abort = new AbortController();
  // generous: only a server that froze gets here
  const timer = setTimeout(() => abort.abort(new Error('no answer within 30 s')), 30_000);
  try {
    const res = await fetch(world.server.url + sent.path, {
      method: sent.method,
      headers: sent.headers,
      body: typeof sent.body === 'string' ? sent.body : sent.body && new Blob([sent.body]),
      signal: abort.signal,
      redirect: 'manual',
    });
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      abort.abort();
      return { status: res.status, headers: res.headers, text: '', json: null, stream: true };
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: checked below where it matters
    }
    return { status: res.status, headers: res.headers, text, json, stream: false };
  } finally {
    clearTimeout(timer);
  }
}

const SENDABLE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** What is wrong with this answer, by the conventions every answer must keep. */
export function problemsOf(sent: Sent, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`a ${answer.status}`);
  const id = answer.headers.get('x-request-id');
  if (!id) problems.push('no X-Request-Id');
  const sentId = sent.headers['x-request-id'];
  if (id && sentId !== undefined && SENDABLE_REQUEST_ID.test(sentId) && id !== sentId) problems.push(`X-Request-Id ${id} instead of the ${sentId} sent`);
  if (answer.status >= 400 && !htmlErrorPage(sent, answer)) {
    const type = answer.headers.get('content-type') ?? '';
    const code = answer.json?.Code;
    if (!type.startsWith('application/json')) problems.push(`an error that is not JSON (${type || 'no content type'})`);
    else if (typeof code !== 'string' || !(code in errorCatalogue)) problems.push(`no catalogue Code (${String(code)})`);
    else if (errorCatalogue[code as keyof typeof errorCatalogue].status !== answer.status)
      problems.push(`${code} with status ${answer.status}, not ${errorCatalogue[code as keyof typeof errorCatalogue].status}`);
    if (typeof answer.json?.Message !== 'string') problems.push('no Message');
  }
  return problems;
}

/** A browser (Accept: text/html) opening a share link gets the error as a page, by design. */
const htmlErrorPage = (sent: Sent, answer: Answer) =>
  sent.method === 'GET' && /^\/share\/[^/?]*(\?|$)/.test(sent.path) && (sent.headers.accept ?? '').includes('text/html') && (answer.headers.get('content-type') ?? '').startsWith('text/html');

/** A reproduction to print: the request (long values cut) and the answer. */
export function describeCase(request: HostileRequest, sent: Sent, answer: Answer | null): string {
  const cut = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const body = sent.body === undefined ? '' : typeof sent.body === 'string' ? cut(sent.body) : `bytes ${Buffer.from(sent.body).toString('hex').slice(0, 200)}`;
  const headers = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k, k === 'authorization' || k === 'cookie' ? `${v.slice(0, 24)}…` : cut(v, 80)]));
  return [
    `${label(request.route)}: ${sent.method} ${cut(sent.path, 200)}`,
    `  headers ${JSON.stringify(headers)}${request.body ? ` body (${request.body.note}) ${body}` : ''}`,
    answer ? `  → ${answer.status} ${answer.stream ? '(event stream)' : cut(answer.text, 300)}` : '  → no answer',
  ].join('\n');
}
