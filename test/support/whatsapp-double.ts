// A stand-in for the WhatsApp Cloud API on 127.0.0.1 (COLLOQUY_META_GRAPH_URL = `${url}/v23.0`):
// `POST /v23.0/<phone-number-id>/messages`, each request checked against Meta's documented shape
// and limits (developers.facebook.com/documentation/business-messaging/whatsapp/messages/…,
// typing-indicators). A call Meta would refuse is answered with Graph's error envelope (#100) AND
// recorded in `violations`, which every test asserts is empty. On demand it answers 429 with
// the throughput error (#130429), 5xx, or hangs.
import type http from 'node:http';
import { closeDouble, listenOnLoopback, waitUntil } from './double-kit.js';

export const GRAPH_VERSION = 'v23.0';

export interface WhatsAppCall {
  phoneNumberId: string;
  token: string;
  body: any;
  /** the status it was answered with (0: left hanging) */
  status: number;
}

type Scripted = { status: 429; retryAfter?: number } | { status: 500 | 502 | 503 } | { hang: true };

const MEDIA = new Set(['image', 'video', 'audio', 'document', 'sticker']);
const CAPTIONED = new Set(['image', 'video', 'document']);
const URL_SHAPE = /^https?:\/\/[^\s/]+/;

export class WhatsAppDouble {
  readonly calls: WhatsAppCall[] = [];
  readonly violations: string[] = [];
  /** phone number ids Meta knows, with the access token that may send from each */
  readonly numbers = new Map<string, string>();
  private readonly script: Scripted[] = [];
  /** the calls it was told to leave unanswered, held open until the caller gives up */
  readonly hanging: http.ServerResponse[] = [];
  private sent = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WhatsAppDouble> {
    let double!: WhatsAppDouble;
    const { server, url } = await listenOnLoopback((req, res) => double.handle(req, res));
    double = new WhatsAppDouble(server, url);
    return double;
  }

  /** What COLLOQUY_META_GRAPH_URL is set to: the version included, as in production. */
  get graphUrl(): string {
    return `${this.url}/${GRAPH_VERSION}`;
  }

  /** The next calls are answered like this, in order. */
  answerNext(...answers: Scripted[]): void {
    this.script.push(...answers);
  }

  /** Successful messages to one user (typing indicators not included), in the order they were answered. */
  delivered(waId: string): any[] {
    return this.calls.filter((c) => c.status === 200 && c.body.to === waId).map((c) => c.body);
  }

  /** Successful typing indicators (they name a message, not a user). */
  typing(): any[] {
    return this.calls.filter((c) => c.status === 200 && c.body.status === 'read').map((c) => c.body);
  }

  /** The text of each message a user received: a text's body, an interactive body, a caption, or `<type>` for bare media. */
  textsOf(waId: string): string[] {
    return this.delivered(waId).map((m) => (m.type === 'text' ? m.text.body : m.type === 'interactive' ? m.interactive.body.text : (m[m.type]?.caption ?? `<${m.type}>`)));
  }

  waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
    return waitUntil(check, what, () => this.calls.map((c) => [c.status, c.body.to ?? c.body.status, c.body.type]), ms);
  }

  close(): Promise<void> {
    return closeDouble(this.server, this.hanging);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const graphError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
        answer(status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'Atest' } }, headers);
      const match = new RegExp(`^/${GRAPH_VERSION.replace('.', '\\.')}/(\\d+)/messages$`).exec(req.url ?? '');
      if (!match || req.method !== 'POST') {
        this.violations.push(`${req.method} ${req.url}: not a Cloud API messages call`);
        return graphError(400, 100, 'Unsupported request');
      }
      const phoneNumberId = match[1];
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = {};
      if (!/^application\/json/.test(req.headers['content-type'] ?? '')) this.violations.push(`content-type ${req.headers['content-type']}`);
      try {
        body = JSON.parse(raw);
      } catch {
        this.violations.push(`body is not JSON: ${raw.slice(0, 100)}`);
      }
      const record = (status: number) => this.calls.push({ phoneNumberId, token, body, status });
      if (this.numbers.get(phoneNumberId) !== token) {
        this.violations.push(`${phoneNumberId}: wrong or missing access token`);
        record(401);
        return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      const problem = this.check(body);
      if (problem) {
        this.violations.push(`${problem} in ${raw}`);
        record(400);
        return graphError(400, 100, `(#100) Invalid parameter: ${problem}`);
      }
      const scripted = this.script.shift();
      if (scripted && 'hang' in scripted) {
        record(0);
        this.hanging.push(res);
        return;
      }
      if (scripted?.status === 429) {
        record(429);
        return graphError(429, 130429, '(#130429) Rate limit hit', scripted.retryAfter !== undefined ? { 'retry-after': String(scripted.retryAfter) } : {});
      }
      if (scripted) {
        record(scripted.status);
        return answer(scripted.status, { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } });
      }
      record(200);
      if (body.status === 'read') return answer(200, { success: true });
      return answer(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.out${++this.sent}` }] });
    });
  }

  /** What the Cloud API would refuse in this body, or null. */
  private check(b: any): string | null {
    if (b?.messaging_product !== 'whatsapp') return 'messaging_product must be "whatsapp"';
    if (b.status !== undefined) {
      // Mark as read, with a typing indicator (typing-indicators reference).
      if (b.status !== 'read') return 'status must be "read"';
      if (typeof b.message_id !== 'string' || !b.message_id.startsWith('wamid.')) return 'message_id must be a received message id';
      if (b.typing_indicator !== undefined && b.typing_indicator?.type !== 'text') return 'typing_indicator.type must be "text"';
      return null;
    }
    if (b.recipient_type !== undefined && b.recipient_type !== 'individual') return 'recipient_type must be "individual"';
    if (typeof b.to !== 'string' || !/^\+?\d{5,20}$/.test(b.to)) return 'to must be a phone number';
    const content = b[b.type];
    if (typeof content !== 'object' || content === null) return `type "${b.type}" needs a "${b.type}" object`;
    if (b.type === 'text') return this.text(content.body, 4096, 'text.body');
    if (MEDIA.has(b.type)) {
      if ((content.link === undefined) === (content.id === undefined)) return `${b.type} needs exactly one of link and id`;
      if (content.link !== undefined && !URL_SHAPE.test(content.link)) return `${b.type}.link must be a URL`;
      if (content.caption !== undefined && !CAPTIONED.has(b.type)) return `${b.type} takes no caption`;
      if (content.caption !== undefined) return this.text(content.caption, 1024, `${b.type}.caption`);
      return null;
    }
    if (b.type === 'interactive') return this.interactive(content);
    if (b.type === 'template') return this.template(content);
    return `type "${b.type}" is not one Colloquy should send`;
  }

  private text(value: unknown, limit: number, what: string): string | null {
    if (typeof value !== 'string' || value.trim() === '') return `${what} is empty`;
    return value.length > limit ? `${what} is over ${limit} characters` : null;
  }

  /** A message template (Cloud API "template" object): name, language code, body parameters as texts. */
  private template(t: any): string | null {
    if (typeof t.name !== 'string' || t.name === '' || t.name.length > 512) return 'template.name must be a template name';
    if (typeof t.language?.code !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(t.language.code)) return 'template.language.code must be a language code';
    for (const c of t.components ?? []) {
      if (c?.type !== 'body' || !Array.isArray(c.parameters)) return 'template components here are body parameters';
      for (const p of c.parameters) if (p?.type !== 'text' || this.text(p.text, 1024, 'template parameter')) return 'a body parameter is a non-empty text';
    }
    return null;
  }

  private interactive(i: any): string | null {
    const body = this.text(i.body?.text, i.type === 'list' ? 4096 : 1024, 'interactive.body.text');
    if (body) return body;
    const a = i.action;
    switch (i.type) {
      case 'button': {
        const buttons = a?.buttons;
        if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3) return 'a reply buttons message has 1 to 3 buttons';
        for (const btn of buttons) {
          if (btn?.type !== 'reply') return 'button type must be "reply"';
          const problem = this.text(btn.reply?.title, 20, 'button title') ?? this.text(btn.reply?.id, 256, 'button id');
          if (problem) return problem;
        }
        if (new Set(buttons.map((x: any) => x.reply.title)).size !== buttons.length) return 'button titles must be unique';
        if (new Set(buttons.map((x: any) => x.reply.id)).size !== buttons.length) return 'button ids must be unique';
        return null;
      }
      case 'list': {
        const problem = this.text(a?.button, 20, 'list button text');
        if (problem) return problem;
        const sections = a.sections;
        if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10) return 'a list has 1 to 10 sections';
        const rows = sections.flatMap((s: any) => (Array.isArray(s?.rows) ? s.rows : []));
        if (rows.length < 1 || rows.length > 10) return 'a list has 1 to 10 rows in all';
        if (sections.length > 1 && sections.some((s: any) => this.text(s.title, 24, 'section title'))) return 'every section of a multi-section list needs a title';
        for (const row of rows) {
          const bad = this.text(row.id, 200, 'row id') ?? this.text(row.title, 24, 'row title') ?? (row.description !== undefined ? this.text(row.description, 72, 'row description') : null);
          if (bad) return bad;
        }
        if (new Set(rows.map((r: any) => r.id)).size !== rows.length) return 'row ids must be unique';
        return null;
      }
      case 'cta_url': {
        if (a?.name !== 'cta_url') return 'action.name must be "cta_url"';
        const problem = this.text(a.parameters?.display_text, 20, 'display_text');
        if (problem) return problem;
        return URL_SHAPE.test(a.parameters?.url ?? '') ? null : 'parameters.url must be a URL';
      }
      default:
        return `interactive type "${i.type}" is not one Colloquy should send`;
    }
  }
}
