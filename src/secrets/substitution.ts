// Fills the secret slots of an outbound request (agents.md "Secrets") just before it is sent,
// outside the engine: the engine's request carries only slots (shared/template.ts), never a value.
// A secret is sent only when the request's host is among its Hosts; elsewhere, and for a name the
// bot does not have, the slot is filled with nothing and a note says why (names and hosts only).
// Each value is encoded for where it lands: URL-encoded in the URL, JSON-string-escaped in a JSON
// body, form-encoded in a form body, as is in a header (a value no header may carry is refused).
// Whatever the server answers, a value it echoes is masked before the flow (and so variables,
// webhooks, logs and traces) can see it.
import type { HttpAnswer } from '../engine/types.js';
import { SECRET_SLOT as SLOT, SLOT_OPEN } from '../shared/template.js';
import type { SecretValue } from './model.js';
import type { SecretStorage } from './port.js';
import { hostKey } from './service.js';

export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
}

export interface FilledRequest<R extends OutboundRequest> {
  request: R;
  notes: string[];
  /** masks, in an answer, the values this request carried */
  mask(answer: HttpAnswer): HttpAnswer;
}

/** What a value the server echoed back becomes in the answer. */
const masked = (name: string) => `[secret ${name}]`;
const hasSlot = (text: string | null) => text?.includes(SLOT_OPEN) === true;
const HEADER_UNSAFE = /[\r\n\0]/;

type Encode = (value: string) => string;
const asIs: Encode = (value) => value;
const jsonEscaped: Encode = (value) => JSON.stringify(value).slice(1, -1);

/** How a secret is written into the body, from the request's Content-Type (or, without one, the body's first character). */
function bodyEncoding(headers: Record<string, string>, body: string): Encode {
  const type =
    Object.entries(headers)
      .find(([name]) => name.toLowerCase() === 'content-type')?.[1]
      ?.toLowerCase() ?? '';
  if (type.includes('json')) return jsonEscaped;
  if (type.includes('application/x-www-form-urlencoded')) return encodeURIComponent;
  if (type === '' && /^\s*[[{]/.test(body)) return jsonEscaped;
  return asIs;
}

export class SecretFiller {
  constructor(private readonly store: Pick<SecretStorage, 'secrets'>) {}

  /** The request with its slots filled; a request without slots is returned as it is, without a read. */
  async fill<R extends OutboundRequest>(botId: string, request: R): Promise<FilledRequest<R>> {
    const headerValues = Object.values(request.headers);
    if (!hasSlot(request.url) && !hasSlot(request.body) && !headerValues.some(hasSlot)) return { request, notes: [], mask: (a) => a };
    const names = new Set<string>();
    for (const text of [request.url, request.body ?? '', ...headerValues]) for (const m of text.matchAll(SLOT)) names.add(m[1]);
    const known = new Map((await this.store.secrets.values(botId, [...names])).map((s) => [s.name, s]));
    const notes: string[] = [];
    const sent = new Map<string, string>();
    const note = (text: string) => void (notes.includes(text) ? undefined : notes.push(text));

    // The host is the URL's with every slot empty: a secret never chooses where it goes.
    const host = hostOfUrl(request.url.replace(SLOT, ''));
    const valueFor = (name: string, encode: Encode, unsafe?: RegExp): string => {
      const secret: SecretValue | undefined = known.get(name);
      if (!secret) return (note(`secret ${name}: the bot has no secret of this name; sent empty`), '');
      if (host === null || !secret.hosts.includes(host)) return (note(`secret ${name}: not sent to ${host ?? 'this URL'} (not one of its Hosts); sent empty`), '');
      if (unsafe?.test(secret.value)) return (note(`secret ${name}: cannot be sent in a header (line break or NUL); sent empty`), '');
      sent.set(name, secret.value);
      return encode(secret.value);
    };
    const fillText = (text: string, encode: Encode, unsafe?: RegExp) => text.replace(SLOT, (_m, name: string) => valueFor(name, encode, unsafe));

    let url = fillText(request.url, encodeURIComponent);
    if (hostOfUrl(url) !== host) {
      // a slot inside the host name would move the request elsewhere: sent with none
      note('a secret in the host name of the URL is never sent; sent empty');
      url = request.url.replace(SLOT, '');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = fillText(value, asIs, HEADER_UNSAFE);
    const body = request.body === null ? null : fillText(request.body, bodyEncoding(request.headers, request.body));
    return { request: { ...request, url, headers, body }, notes, mask: (answer) => maskAnswer(answer, sent) };
  }
}

function hostOfUrl(url: string): string | null {
  try {
    return hostKey(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** The answer with every value sent (and its URL- and JSON-encoded forms) replaced by its name. */
function maskAnswer(answer: HttpAnswer, sent: ReadonlyMap<string, string>): HttpAnswer {
  let body = answer.body;
  for (const [name, value] of sent) {
    if (value === '') continue;
    for (const form of new Set([value, encodeURIComponent(value), jsonEscaped(value)])) body = body.split(form).join(masked(name));
  }
  return body === answer.body ? answer : { ...answer, body };
}
