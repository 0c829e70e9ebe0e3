// A stand-in for Slack's Web API (`POST {COLLOQUY_SLACK_API_URL}/<method>`) on 127.0.0.1, written
// from api.slack.com: `auth.test` and `chat.postMessage`, token in `Authorization: Bearer`, the
// arguments form-encoded (objects such as `blocks` as JSON strings) or JSON, every answer HTTP 200
// `{ok: true|false, error}` except rate limits (HTTP 429 with `Retry-After`, seconds) and outages.
// Every `chat.postMessage` is checked against the method's and Block Kit's documented limits; a
// call Slack would refuse is recorded in `violations` (and answered `ok: false`).
import type http from 'node:http';
import { ScriptedDouble } from './double-kit.js';

export interface SlackCall {
  method: string;
  args: Record<string, any>;
  status: number;
  at: number;
}

type Json = Record<string, any>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class SlackDouble extends ScriptedDouble<SlackCall> {
  protected readonly platform = 'Slack';
  private ts = 1_700_000_000;

  private constructor(
    readonly botToken: string,
    readonly team: { id: string; botUserId: string; botName: string },
  ) {
    super();
  }

  /** Listens on loopback; `url` is then COLLOQUY_SLACK_API_URL. */
  static start(botToken: string, team = { id: 'T0TEAM001', botUserId: 'U0BOT0001', botName: 'shopbot' }): Promise<SlackDouble> {
    return new SlackDouble(botToken, team).listen('/api');
  }

  protected describe(c: SlackCall): unknown {
    return [c.status, c.method, c.args.text];
  }

  /** Messages Slack accepted, to one channel (and thread, when given). */
  postsTo(channel: string, thread?: string): Json[] {
    return this.calls.filter((c) => c.method === 'chat.postMessage' && c.status === 200 && c.args.channel === channel && c.args.thread_ts === thread).map((c) => c.args);
  }

  textsTo(channel: string, thread?: string): string[] {
    return this.postsTo(channel, thread).map((p) => p.text);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const args = argsOf(String(req.headers['content-type'] ?? ''), Buffer.concat(chunks).toString('utf8'));
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${this.botToken}`) {
        this.calls.push({ method, args, status: 200, at: Date.now() });
        return json(200, { ok: false, error: 'invalid_auth' });
      }
      if (method === 'auth.test') {
        this.calls.push({ method, args, status: 200, at: Date.now() });
        return json(200, {
          ok: true,
          url: 'https://shop.slack.com/',
          team: 'Shop',
          user: this.team.botName,
          team_id: this.team.id,
          user_id: this.team.botUserId,
          bot_id: 'B0BOT0001',
          is_enterprise_install: false,
        });
      }
      if (method !== 'chat.postMessage') return json(200, { ok: false, error: 'unknown_method' });
      const problems = checkPost(args);
      const answer = problems.length > 0 ? 'invalid' : (this.script.shift() ?? 'ok');
      const status = answer === 'ok' || answer === 'invalid' ? 200 : answer === 'rate-limit' ? 429 : answer === 'server-error' ? 500 : 0;
      this.violations.push(...problems.map((p) => `${p} in ${JSON.stringify(args)}`));
      this.calls.push({ method, args, status: answer === 'invalid' ? 400 : status, at: Date.now() });
      if (answer === 'hang') return void this.hanging.push(res);
      if (answer === 'rate-limit') return json(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(this.retryAfterSeconds) });
      if (answer === 'server-error') return json(500, { ok: false, error: 'internal_error' });
      if (answer === 'invalid') return json(200, { ok: false, error: 'invalid_blocks' });
      return json(200, { ok: true, channel: args.channel, ts: `${++this.ts}.000100`, message: { text: args.text } });
    });
  }
}

/** The Web API takes form fields (objects JSON-encoded inside) or a JSON body. */
function argsOf(contentType: string, body: string): Json {
  if (contentType.startsWith('application/json')) return JSON.parse(body || '{}');
  const args: Json = {};
  for (const [name, value] of new URLSearchParams(body)) {
    args[name] = value.startsWith('[') || value.startsWith('{') ? JSON.parse(value) : value;
  }
  return args;
}

/** What Slack would refuse in a chat.postMessage (api.slack.com/methods/chat.postMessage, Block Kit reference). */
export function checkPost(args: Json): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  need(typeof args.channel === 'string' && /^[CDG][A-Z0-9]+$/.test(args.channel), `channel ${args.channel}`);
  need(args.thread_ts === undefined || /^\d+\.\d+$/.test(args.thread_ts), `thread_ts ${args.thread_ts}`);
  need(typeof args.text === 'string' && args.text.trim() !== '' && args.text.length <= 4000, `text must be 1-4000 characters (${String(args.text).length})`);
  if (args.blocks === undefined) return problems;
  const blocks = args.blocks;
  need(Array.isArray(blocks) && blocks.length >= 1 && blocks.length <= 50, 'blocks: 1 to 50');
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (!isObject(block)) return [...problems, 'a block is not an object'];
    if (block.type === 'section')
      need(block.text?.type === 'mrkdwn' && typeof block.text.text === 'string' && block.text.text.length >= 1 && block.text.text.length <= 3000, 'section text 1-3000 characters');
    else if (block.type === 'image') need(/^https?:\/\//.test(block.image_url) && typeof block.alt_text === 'string' && block.alt_text.length <= 2000, 'image needs image_url and alt_text');
    else if (block.type === 'actions') {
      const elements = block.elements;
      need(Array.isArray(elements) && elements.length >= 1 && elements.length <= 25, 'actions: 1 to 25 elements');
      for (const e of Array.isArray(elements) ? elements : []) {
        need(
          e?.type === 'button' && e.text?.type === 'plain_text' && typeof e.text.text === 'string' && e.text.text.length >= 1 && e.text.text.length <= 75,
          `button text 1-75 characters: ${e?.text?.text}`,
        );
        need(typeof e?.action_id === 'string' && e.action_id.length <= 255, 'action_id');
        need((e?.value !== undefined) !== (e?.url !== undefined) || e?.url !== undefined, 'a button has a value or a url');
        need(e?.value === undefined || (typeof e.value === 'string' && e.value.length <= 2000), 'value up to 2000 characters');
      }
    } else problems.push(`block type ${block.type}`);
  }
  const ids = (Array.isArray(blocks) ? blocks : []).flatMap((b: Json) => (Array.isArray(b?.elements) ? b.elements.map((e: Json) => e.action_id) : []));
  need(new Set(ids).size === ids.length, 'action_id unique within the message');
  return problems;
}
