// The soak run's traffic, all of it to 127.0.0.1 and all of it paced: custom-channel chat over
// many users of two bots, web-channel starts and messages, operator injections and
// takeover/handback, console event streams, and webhook deliveries (includeAllChannels) to a
// receiver of our own that checks each call's signature.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Recorder } from './soak-stats.js';

export const ADMIN_TOKEN = 'soak-admin-token-0123456789abcdef';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

export interface Call {
  status: number;
  body: any;
}

/**
 * One request, recorded (kind, status, Code, latency); network failures are status 0. `body` is
 * sent as JSON, `raw` as it is (a YAML text with its content type in `headers`, a multipart form).
 */
export async function call(
  recorder: Recorder,
  kind: string,
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string | FormData; headers?: Record<string, string> } = {},
): Promise<Call> {
  const started = performance.now();
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const sent = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const res = await fetch(base + path, { method, headers, body: sent, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    recorder.add({ kind, status: res.status, code: res.status >= 300 ? body?.Code : undefined, ms: performance.now() - started });
    return { status: res.status, body };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    recorder.add({ kind, status: 0, code: cause, ms: performance.now() - started });
    return { status: 0, body: null };
  }
}

/** The integrator's webhook endpoint: answers 200 and checks the signature of every call. */
export class Receiver {
  calls = 0;
  private badSignatures = 0;
  readonly events = new Map<string, number>();
  private readonly secrets = new Set<string>();
  /** calls that came before their bot's secret was known (a bot's first turns race its creation answer) */
  private unchecked: Array<{ secret: string; signature: string; raw: string }> = [];
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    let receiver!: Receiver;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        receiver.check(req, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    return receiver;
  }

  /** A bot's secret: its calls are checked against it, those that came earlier too. */
  trust(secret: string): void {
    this.secrets.add(secret);
    const waiting = this.unchecked;
    this.unchecked = [];
    for (const call of waiting) this.verify(call.secret, call.signature, call.raw);
  }

  /** Calls whose secret never became known count as badly signed. */
  get badlySigned(): number {
    return this.badSignatures + this.unchecked.length;
  }

  private check(req: http.IncomingMessage, raw: string): void {
    this.calls++;
    const secret = String(req.headers.authorization ?? '');
    const signature = String(req.headers['x-colloquy-signature'] ?? '');
    if (this.secrets.has(secret)) this.verify(secret, signature, raw);
    else this.unchecked.push({ secret, signature, raw });
    try {
      const event = String(JSON.parse(raw).Event);
      this.events.set(event, (this.events.get(event) ?? 0) + 1);
    } catch {
      this.badSignatures++;
    }
  }

  private verify(secret: string, signature: string, raw: string): void {
    if (!this.secrets.has(secret)) return void this.unchecked.push({ secret, signature, raw });
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
    const expected = match ? crypto.createHmac('sha256', secret).update(`${match[1]}.${raw}`).digest('hex') : '';
    if (!match || match[2] !== expected) this.badSignatures++;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface SoakBot {
  name: string;
  botKey: string;
  botSecret: string;
  botToken: string;
  webKey: string;
  users: string[];
}

export interface Seeded {
  accountKey: string;
  accountToken: string;
  bots: SoakBot[];
  /** the console session cookie */
  cookie: string;
}

const OPERATOR = { email: 'soak@example.org', password: 'soak operator password' };

/** Account, two support bots (one with the webhook and includeAllChannels), an operator, started conversations. */
export async function seed(recorder: Recorder, base: string, botFile: URL, receiver: Receiver, usersPerBot: number): Promise<Seeded> {
  const must = async (what: string, result: Promise<Call>, status = 200) => {
    const res = await result;
    if (res.status !== status) throw new Error(`seeding: ${what} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const account = await must('account', call(recorder, 'seed', base, 'POST', '/admin/accounts', { body: { Name: 'Soak', Plan: 'standard' }, headers: admin }), 201);
  const accountToken = (await must('account token', call(recorder, 'seed', base, 'POST', '/authorization/integration', { body: { AccountAPIKey: account.AccountAPIKey } }))).token;
  const auth = { authorization: `Bearer ${accountToken}` };
  const file = JSON.parse(fs.readFileSync(botFile, 'utf8'));
  const bots: SoakBot[] = [];
  for (const [name, custom] of [
    ['hooked', { webhookUrl: receiver.url, includeAllChannels: true }],
    ['plain', { webhookUrl: null, includeAllChannels: false }],
  ] as const) {
    const settings = { ...file.settings, channels: { custom, web: { enabled: true, allowedOrigins: ['*'] } } };
    const created = await must(`bot ${name}`, call(recorder, 'seed', base, 'POST', '/bots', { body: { ...file, name: `Soak ${name}`, settings }, headers: auth }), 201);
    receiver.trust(created.APISecret);
    const token = (
      await must(
        'bot token',
        call(recorder, 'seed', base, 'POST', '/authorization/integration', { body: { AccountAPIKey: account.AccountAPIKey, BotAPIKey: created.APIKey, BotAPISecret: created.APISecret } }),
      )
    ).token;
    const listed = await must('list bots', call(recorder, 'seed', base, 'GET', '/bots', { headers: auth }));
    const webKey = listed.Result.find((b: any) => b.APIKey === created.APIKey).WebKey;
    const users = Array.from({ length: usersPerBot }, (_, i) => `soak-${name}-${i}`);
    for (const user of users) await must('start', call(recorder, 'seed', base, 'POST', '/custom/chat', { body: { UserId: user }, headers: { authorization: `Bearer ${token}` } }));
    bots.push({ name, botKey: created.APIKey, botSecret: created.APISecret, botToken: token, webKey, users });
  }
  await must(
    'operator',
    call(recorder, 'seed', base, 'POST', `/admin/accounts/${account.AccountId}/operators`, { body: { Email: OPERATOR.email, Name: 'Soak', Password: OPERATOR.password }, headers: admin }),
    201,
  );
  const login = await fetch(`${base}/console/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: OPERATOR.email, Password: OPERATOR.password }),
  });
  const cookie = /colloquy_console=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  if (login.status !== 200 || !cookie) throw new Error(`seeding: console login → ${login.status}`);
  return { accountKey: account.AccountAPIKey, accountToken, bots, cookie };
}

const TEXTS = ['hello', 'Where is my order?', 'restart', 'Track an order', 'I want a refund', 'start over', 'thanks!', '42'];

/** Runs `step` until `until` (performance.now()), one step every `intervalMs` at most. */
export async function paced(until: number, intervalMs: number, step: () => Promise<void>): Promise<void> {
  while (performance.now() < until) {
    const started = performance.now();
    await step();
    const left = intervalMs - (performance.now() - started);
    if (left > 0) await sleep(Math.min(left, Math.max(0, until - performance.now())));
  }
}

export interface Traffic {
  base: string;
  recorder: Recorder;
  seeded: Seeded;
  until: number;
  /** requests a second, all workers together */
  rate: number;
  /** web visitors at most (Infinity: a new one keeps arriving) */
  visitors: number;
}

/** Chat turns (mostly texts, some READY and RESET) on random users of both bots. */
function chatWorker(t: Traffic, share: number): Promise<void> {
  return paced(t.until, 1000 / (t.rate * share), async () => {
    const bot = pick(t.seeded.bots);
    const roll = Math.random();
    // PENDING collects what operators and injections queued on the bot without a webhook
    const user = pick(bot.users);
    const body =
      roll < 0.85
        ? { UserId: user, Text: pick(TEXTS) }
        : roll < 0.92
          ? { UserId: user, Command: 'READY', HistoryLimit: 20 }
          : roll < 0.97
            ? { UserId: user, Command: 'PENDING' }
            : { UserId: user, Command: 'RESET' };
    await call(t.recorder, `chat ${body.Command ?? 'text'}`.toLowerCase(), t.base, 'POST', '/custom/chat', { body, headers: { authorization: `Bearer ${bot.botToken}` } });
  });
}

/** A web visitor: start a conversation, say three things, now and then come back (READY). Once
 * `t.visitors` have started, it is always one of them coming back and saying three things. */
function webWorker(t: Traffic, share: number): Promise<void> {
  const visitors: Array<{ key: string; user: string }> = [];
  let started = 0;
  let script: Array<() => Promise<void>> = [];
  const say = (visitor: () => { key: string; user: string } | undefined) =>
    [0, 1, 2].map(() => async () => {
      const v = visitor();
      if (v) await call(t.recorder, 'web message', t.base, 'POST', `/web/${v.key}/messages`, { body: { UserId: v.user, Text: pick(TEXTS) } });
    });
  return paced(t.until, 1000 / (t.rate * share), async () => {
    if (script.length === 0) {
      const bot = pick(t.seeded.bots);
      if (visitors.length > 0 && started >= t.visitors) {
        const back = pick(visitors);
        script = [async () => void (await call(t.recorder, 'web resume', t.base, 'POST', `/web/${back.key}/conversation`, { body: { UserId: back.user } })), ...say(() => back)];
      } else if (visitors.length > 0 && Math.random() < 0.2) {
        const back = pick(visitors);
        script = [async () => void (await call(t.recorder, 'web resume', t.base, 'POST', `/web/${back.key}/conversation`, { body: { UserId: back.user } }))];
      } else {
        script = [
          async () => {
            const answer = await call(t.recorder, 'web start', t.base, 'POST', `/web/${bot.webKey}/conversation`, { body: {} });
            started++;
            if (answer.status === 200) visitors.push({ key: bot.webKey, user: answer.body.UserId });
            if (visitors.length > 500) visitors.shift();
          },
          ...say(() => visitors.at(-1)),
        ];
      }
    }
    await script.shift()!();
  });
}

/** An operator: take a conversation over, write to the user (and inject as the bot), hand it back. */
function operatorWorker(t: Traffic, share: number): Promise<void> {
  let script: Array<() => Promise<void>> = [];
  return paced(t.until, 1000 / (t.rate * share), async () => {
    if (script.length === 0) {
      const bot = pick(t.seeded.bots);
      const user = pick(bot.users);
      const auth = { authorization: `Bearer ${bot.botToken}` };
      const say = (direction: string) => async () =>
        void (await call(t.recorder, `inject ${direction.toLowerCase()}`, t.base, 'POST', '/custom/chat', { body: { UserId: user, Text: `${direction} says hi` }, headers: { ...auth, direction } }));
      const state = (change: Record<string, string>) => async () =>
        void (await call(t.recorder, `state ${change.state}`, t.base, 'POST', '/custom/state', { body: { userid: user, ...change }, headers: auth }));
      script = [state({ state: 'takeover', operator: '*' }), say('OPERATOR'), say('BOT'), state({ state: 'handover', mode: '*' })];
    }
    await script.shift()!();
  });
}

/** A console page's event stream, reopened when it ends; counts the events it gets. */
async function consoleStream(t: Traffic, counter: { events: number; opened: number }): Promise<void> {
  while (performance.now() < t.until) {
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), Math.max(0, t.until - performance.now()));
    const started = performance.now();
    try {
      const res = await fetch(`${t.base}/console/api/events`, { headers: { cookie: t.seeded.cookie, accept: 'text/event-stream' }, signal: abort.signal });
      t.recorder.add({ kind: 'console stream', status: res.status, ms: performance.now() - started });
      counter.opened++;
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        counter.events += (decoder.decode(chunk, { stream: true }).match(/^data: /gm) ?? []).length;
      }
    } catch (error) {
      if (!abort.signal.aborted) t.recorder.add({ kind: 'console stream', status: 0, code: (error as Error).name, ms: performance.now() - started });
    } finally {
      clearTimeout(stop);
    }
    if (performance.now() < t.until) await sleep(1000);
  }
}

/** All of it until `until`: 70% chat, 20% web, 10% operator, plus two console streams. */
export async function runTraffic(t: Traffic, streams: { events: number; opened: number }): Promise<void> {
  await Promise.all([...[0, 1, 2, 3].map(() => chatWorker(t, 0.7 / 4)), webWorker(t, 0.2), operatorWorker(t, 0.1), consoleStream(t, streams), consoleStream(t, streams)]);
}
