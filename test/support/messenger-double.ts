// A stand-in for the Graph API's Messenger Send API (`POST {version}/me/messages`) on 127.0.0.1.
// It checks every call against the Messenger Platform reference (send-api, template/button,
// template/generic, buttons/quick-replies, sender-actions): a call Meta would refuse is recorded in
// `violations` (and refused with Meta's error shape), so a test that asserts no violations fails
// on a malformed call. It records what it received and answers as told: the platform's rate-limit
// error (HTTP 429, code 613), a 5xx, or never.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const GRAPH_VERSION = 'v23.0';

export interface SendCall {
  path: string;
  /** the parsed JSON body */
  body: any;
  /** Date.now() on arrival */
  at: number;
  /** what the double answered */
  status: number;
}

export type Answer = 'ok' | 'rate-limit' | 'server-error' | 'hang';

type Json = Record<string, any>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** "characters" as Meta counts them: code points (an emoji is one) */
const len = (s: string) => [...s].length;
const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v);

export class MessengerDouble {
  readonly calls: SendCall[] = [];
  readonly violations: string[] = [];
  /** answers for the next calls, in order; then every call is answered `ok` */
  readonly script: Answer[] = [];
  /** seconds sent as `Retry-After` with a rate-limit answer (none when null) */
  retryAfterSeconds: number | null = 1;
  private waiters: Array<() => void> = [];
  /** the calls it was told to leave unanswered, held open until the caller gives up */
  readonly hanging: http.ServerResponse[] = [];
  private nextId = 1;

  private constructor(
    private readonly server: http.Server,
    /** the Graph URL with its version, as COLLOQUY_META_GRAPH_URL */
    readonly url: string,
    readonly accessToken: string,
  ) {}

  static async start(accessToken: string): Promise<MessengerDouble> {
    let double!: MessengerDouble;
    const server = http.createServer((req, res) => double.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    double = new MessengerDouble(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/${GRAPH_VERSION}`, accessToken);
    return double;
  }

  /** Calls answered 200, in arrival order. */
  get delivered(): SendCall[] {
    return this.calls.filter((c) => c.status === 200);
  }

  /** Delivered messages (sender actions left out) to one PSID. */
  messagesTo(psid: string): Json[] {
    return this.delivered.filter((c) => c.body.recipient?.id === psid && c.body.message).map((c) => c.body.message);
  }

  /** The text of every delivered message to one PSID (templates give their text, generic `[generic]`, media `[<type>]`). */
  textsTo(psid: string): string[] {
    return this.messagesTo(psid).map((m) => {
      if (typeof m.text === 'string') return m.text;
      const p = m.attachment?.payload;
      if (m.attachment?.type === 'template') return p.template_type === 'button' ? p.text : `[${p.template_type}]`;
      return `[${m.attachment?.type}]`;
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const problems: string[] = [];
      let body: any = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        problems.push('the body is not JSON');
      }
      const path = req.url ?? '';
      if (req.method !== 'POST' || path !== `/${GRAPH_VERSION}/me/messages`) problems.push(`${req.method} ${path}: not the Send API`);
      if (req.headers.authorization !== `Bearer ${this.accessToken}`) problems.push(`Authorization is not the page access token: ${req.headers.authorization}`);
      if (!String(req.headers['content-type']).startsWith('application/json')) problems.push(`content-type ${req.headers['content-type']}`);
      if (body !== null) problems.push(...checkSend(body));
      const answer = problems.length > 0 ? 'invalid' : (this.script.shift() ?? 'ok');
      const status = answer === 'ok' ? 200 : answer === 'rate-limit' ? 429 : answer === 'server-error' ? 500 : answer === 'invalid' ? 400 : 0;
      this.violations.push(...problems.map((p) => `${p} in ${JSON.stringify(body)}`));
      this.calls.push({ path, body, at: Date.now(), status });
      for (const wake of this.waiters.splice(0)) wake();
      if (answer === 'hang') return void this.hanging.push(res);
      const json = (code: number, payload: unknown, headers: Record<string, string> = {}) => res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
      if (answer === 'ok') return json(200, { recipient_id: body.recipient.id, ...(body.message ? { message_id: `m_${this.nextId++}` } : {}) });
      if (answer === 'rate-limit') {
        // Graph's error object; 613 is the Messenger Platform's "Calls to this api have exceeded the rate limit."
        return json(
          429,
          graphError(613, 'Calls to this api have exceeded the rate limit.', 'OAuthException'),
          this.retryAfterSeconds === null ? {} : { 'retry-after': String(this.retryAfterSeconds) },
        );
      }
      if (answer === 'server-error') return json(500, graphError(2, 'An unexpected error has occurred. Please retry your request later.', 'OAuthException', true));
      return json(400, graphError(100, `Invalid parameter: ${problems.join('; ')}`, 'OAuthException'));
    });
  }

  /** Resolves once `predicate` holds (checked on every call); fails after `timeoutMs`. */
  async waitFor(predicate: (d: MessengerDouble) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`messenger double: ${what} did not happen in ${timeoutMs} ms; calls: ${JSON.stringify(this.calls.map((c) => [c.status, c.body]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  assertNoViolations(): void {
    assert.deepEqual(this.violations, [], 'calls the Send API would refuse');
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const graphError = (code: number, message: string, type: string, transient = false) => ({
  error: { message: `(#${code}) ${message}`, type, code, ...(transient ? { is_transient: true } : {}), fbtrace_id: 'A1b2C3d4E5f' },
});

/** What Meta would refuse in one Send API body, as sentences (none for a valid call). */
export function checkSend(body: unknown): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  if (!isObject(body)) return ['the body is not an object'];
  need(isObject(body.recipient) && typeof body.recipient.id === 'string' && /^\d+$/.test(body.recipient.id), 'recipient.id must be the PSID (a string of digits)');
  if (body.sender_action !== undefined) {
    // "sender_action … should only include the sender_action parameter and the recipient object"
    need(['typing_on', 'typing_off', 'mark_seen'].includes(body.sender_action), `sender_action ${body.sender_action}`);
    need(
      Object.keys(body).every((k) => k === 'recipient' || k === 'sender_action'),
      'a sender action goes alone with the recipient',
    );
    return problems;
  }
  need(['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(body.messaging_type), `messaging_type ${body.messaging_type}`);
  need(
    Object.keys(body).every((k) => ['recipient', 'messaging_type', 'message', 'tag', 'notification_type'].includes(k)),
    `unknown members ${Object.keys(body)}`,
  );
  const message = body.message;
  if (!isObject(message)) return [...problems, 'message is missing'];
  need(
    Object.keys(message).every((k) => ['text', 'attachment', 'quick_replies', 'metadata'].includes(k)),
    `unknown message members ${Object.keys(message)}`,
  );
  need((message.text !== undefined) !== (message.attachment !== undefined), 'exactly one of message.text and message.attachment');
  if (message.text !== undefined)
    need(typeof message.text === 'string' && message.text.trim() !== '' && len(message.text) <= 2000, `message.text must be 1-2000 characters (${String(message.text).length})`);
  if (message.quick_replies !== undefined) {
    const replies = message.quick_replies;
    need(Array.isArray(replies) && replies.length >= 1 && replies.length <= 13, 'quick_replies: 1 to 13');
    for (const r of Array.isArray(replies) ? replies : []) {
      need(isObject(r) && r.content_type === 'text', 'quick reply content_type text');
      need(typeof r?.title === 'string' && r.title !== '' && len(r.title) <= 20, `quick reply title 1-20 characters: ${r?.title}`);
      need(typeof r?.payload === 'string' && r.payload !== '' && len(r.payload) <= 1000, 'quick reply payload 1-1000 characters');
    }
  }
  if (message.attachment !== undefined) problems.push(...checkAttachment(message.attachment));
  return problems;
}

function checkAttachment(attachment: unknown): string[] {
  if (!isObject(attachment) || !isObject(attachment.payload)) return ['attachment needs a type and a payload'];
  const { type, payload } = attachment;
  if (['image', 'video', 'audio', 'file'].includes(type)) return isUrl(payload.url) ? [] : [`${type} attachment needs payload.url`];
  if (type !== 'template') return [`attachment type ${type}`];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  if (payload.template_type === 'button') {
    need(typeof payload.text === 'string' && payload.text.trim() !== '' && len(payload.text) <= 640, `button template text 1-640 characters (${String(payload.text).length})`);
    need(Array.isArray(payload.buttons) && payload.buttons.length >= 1 && payload.buttons.length <= 3, 'button template: 1 to 3 buttons');
    for (const b of Array.isArray(payload.buttons) ? payload.buttons : []) problems.push(...checkButton(b));
  } else if (payload.template_type === 'generic') {
    const elements = payload.elements;
    need(Array.isArray(elements) && elements.length >= 1 && elements.length <= 10, 'generic template: 1 to 10 elements');
    for (const e of Array.isArray(elements) ? elements : []) {
      need(typeof e?.title === 'string' && e.title !== '' && len(e.title) <= 80, `element title 1-80 characters: ${e?.title}`);
      need(e?.subtitle === undefined || (typeof e.subtitle === 'string' && len(e.subtitle) <= 80), 'element subtitle up to 80 characters');
      need(e?.image_url === undefined || isUrl(e.image_url), 'element image_url');
      need(isObject(e) && Object.keys(e).some((k) => k !== 'title'), 'an element needs a property besides its title');
      need(e?.buttons === undefined || (Array.isArray(e.buttons) && e.buttons.length >= 1 && e.buttons.length <= 3), 'element buttons: 1 to 3');
      for (const b of Array.isArray(e?.buttons) ? e.buttons : []) problems.push(...checkButton(b));
    }
  } else problems.push(`template_type ${payload.template_type}`);
  return problems;
}

function checkButton(button: unknown): string[] {
  if (!isObject(button)) return ['a button is not an object'];
  const problems: string[] = [];
  if (typeof button.title !== 'string' || button.title === '' || len(button.title) > 20) problems.push(`button title 1-20 characters: ${button.title}`);
  if (button.type === 'postback') {
    if (typeof button.payload !== 'string' || button.payload === '' || len(button.payload) > 1000) problems.push('postback payload 1-1000 characters');
  } else if (button.type === 'web_url') {
    if (!isUrl(button.url)) problems.push(`web_url url ${button.url}`);
  } else problems.push(`button type ${button.type}`);
  return problems;
}
