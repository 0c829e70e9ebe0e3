// The soak's understanding and AI traffic (issue 22): a bot with intents, a synonym entity, the AI
// fallback, an `ai` reply step and an embedding model (every text is embedded for its intents),
// whose provider is a stand-in of our own on 127.0.0.1 that now and then answers far past the size
// cap, fails, or hangs past the step's timeout. The traffic:
// paraphrases and entity mentions, long texts that nobody understands (missed texts), /nlp/parse,
// the missed list, a publish now and then (training) and a provider change now and then.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Recorder } from './soak-stats.js';
import { call, type Call, type Traffic } from './soak-traffic.js';

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An OpenAI-compatible Chat Completions stand-in: mostly a short answer, sometimes hostile. */
export class SoakProvider {
  readonly answered = new Map<string, number>();
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<SoakProvider> {
    const server = http.createServer();
    const provider = new SoakProvider(server);
    server.on('request', (req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += body.length < 1_000_000 ? chunk : ''));
      req.on('end', () => ((req.url ?? '').endsWith('/embeddings') ? provider.embeddings(body, res) : provider.answer(res)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return provider;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  private hostile(res: http.ServerResponse, what: string): 'short' | 'huge' | null {
    const roll = Math.random();
    const kind = roll < 0.85 ? 'short' : roll < 0.92 ? 'huge' : roll < 0.97 ? 'error' : 'hang';
    this.answered.set(`${what} ${kind}`, (this.answered.get(`${what} ${kind}`) ?? 0) + 1);
    if (kind === 'error') res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
    else if (kind === 'hang') setTimeout(() => res.destroy(), 8000);
    else return kind;
    return null;
  }

  /** OpenAI's embeddings answer: a word-hash vector a text (texts sharing words are near), or hostile. */
  embeddings(body: string, res: http.ServerResponse): void {
    const kind = this.hostile(res, 'embeddings');
    if (kind === null) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (kind === 'huge') return void this.endHuge(res, '{"object":"list","data":[{"object":"embedding","index":0,"embedding":[', '0]}]}');
    let input: unknown = [];
    try {
      input = JSON.parse(body).input;
    } catch {
      // an unreadable request gets an empty list, which the server must refuse
    }
    const texts = Array.isArray(input) ? input.map(String) : [String(input)];
    const vector = (text: string) => {
      const v = new Array<number>(64).fill(0.01);
      for (const word of text.toLowerCase().split(/\s+/)) if (word) v[[...word].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 64, 7)] += 1;
      return v;
    };
    res.end(
      JSON.stringify({
        object: 'list',
        data: texts.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })),
        model: 'soak-embed',
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      }),
    );
  }

  private answer(res: http.ServerResponse): void {
    const kind = this.hostile(res, 'chat');
    if (kind === null) return;
    const completion = (content: string) => `{"id":"soak","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"${content}`;
    const tail = '"},"finish_reason":"stop"}],"usage":{"total_tokens":42}}';
    res.writeHead(200, { 'content-type': 'application/json' });
    if (kind === 'short') return void res.end(completion('We can help with that.') + tail);
    this.endHuge(res, completion(''), tail);
  }

  /** 64 MB between head and tail, written as the client reads it: the server must stop reading at its cap. */
  private endHuge(res: http.ServerResponse, head: string, tail: string): void {
    res.write(head);
    let left = 1024;
    const chunk = head.endsWith('[') ? '0,'.repeat(32 * 1024) : 'x'.repeat(64 * 1024);
    const more = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end(tail);
    };
    res.on('error', () => undefined);
    more();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface UnderstandingBot {
  botKey: string;
  botToken: string;
  users: string[];
  file: unknown;
}

/** The support bot's intents, a synonym entity, the AI fallback, and an `ai` step in the fallback. */
function understandingBot(supportFile: URL, channels: unknown): any {
  const support = JSON.parse(fs.readFileSync(supportFile, 'utf8'));
  const onError = [{ type: 'text', text: 'Our assistant is not available right now.' }];
  return {
    format: 'colloquy/bot@1',
    name: 'Soak understanding',
    settings: { enableTypeSpeed: false, wordsPerMinute: 200, simplifiedAuth: false, channels },
    variables: {},
    triggers: support.triggers.filter((t: any) => t.intent !== undefined).map((t: any) => ({ intent: t.intent, actions: [{ type: 'text', text: `intent ${t.intent}, size {{entity_size}}` }] })),
    behaviours: [
      {
        name: 'Main',
        start: true,
        interactions: [
          { name: 'Start', start: true, actions: [{ type: 'text', text: 'Ask me anything.' }] },
          { name: 'Fallback', fallback: true, actions: [{ type: 'ai', mode: 'reply', say: true, variable: 'ai_answer', history: 4, maxTokens: 200, timeoutMs: 3000, onError }] },
        ],
      },
    ],
    nlp: {
      ...support.nlp,
      aiFallback: true,
      entities: [{ name: 'size', values: { small: ['small', 's', 'little', 'tiny'], medium: ['medium', 'm', 'regular'], large: ['large', 'l', 'big', 'extra large'] } }],
    },
  };
}

/** Creates and publishes the bot, points it at the provider, starts its conversations. */
export async function seedUnderstanding(
  recorder: Recorder,
  base: string,
  accountKey: string,
  accountToken: string,
  supportFile: URL,
  provider: SoakProvider,
  users: number,
): Promise<UnderstandingBot> {
  const must = async (what: string, result: Promise<Call>, status = 200) => {
    const res = await result;
    if (res.status !== status) throw new Error(`seeding: ${what} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const auth = { authorization: `Bearer ${accountToken}` };
  const file = understandingBot(supportFile, { custom: { webhookUrl: null, includeAllChannels: false } });
  const created = await must('understanding bot', call(recorder, 'seed', base, 'POST', '/bots', { body: file, headers: auth }), 201);
  await must(
    'provider',
    call(recorder, 'seed', base, 'PUT', `/bots/${created.APIKey}/ai`, { body: { BaseUrl: provider.baseUrl, Model: 'soak-model', EmbeddingModel: 'soak-embed', ApiKey: 'sk-soak' }, headers: auth }),
  );
  const token = (
    await must('bot token', call(recorder, 'seed', base, 'POST', '/authorization/integration', { body: { AccountAPIKey: accountKey, BotAPIKey: created.APIKey, BotAPISecret: created.APISecret } }))
  ).token;
  const names = Array.from({ length: users }, (_, i) => `soak-nlp-${i}`);
  for (const user of names) await must('start', call(recorder, 'seed', base, 'POST', '/custom/chat', { body: { UserId: user }, headers: { authorization: `Bearer ${token}` } }));
  return { botKey: created.APIKey, botToken: token, users: names, file };
}

const UNDERSTOOD = ["where's my parcel??", 'can I get a large one', 'I need a human', 'when are you open on saturday', 'track my small package please', 'my order never came'];
/** Never understood; the long ones fill the missed texts and the history toward their caps. */
const MISSED = () => pick([`${'blah '.repeat(3270)}${Math.random()}`, `what is the meaning of ${Math.random()}`, 'tell me a joke', '🤖'.repeat(4000)]);

/** Chat, parse and missed-list calls; now and then a publish (training) or a provider change. */
export function understandingWorker(t: Traffic, bot: UnderstandingBot, provider: SoakProvider, rate: number): Promise<void> {
  const account = { authorization: `Bearer ${t.seeded.accountToken}` };
  return (async () => {
    while (performance.now() < t.until) {
      const started = performance.now();
      const roll = Math.random();
      if (roll < 0.6) {
        const text = Math.random() < 0.6 ? pick(UNDERSTOOD) : MISSED();
        await call(t.recorder, 'nlp chat', t.base, 'POST', '/custom/chat', { body: { UserId: pick(bot.users), Text: text }, headers: { authorization: `Bearer ${bot.botToken}` } });
      } else if (roll < 0.85) {
        await call(t.recorder, 'nlp parse', t.base, 'POST', `/bots/${bot.botKey}/nlp/parse`, { body: { Text: Math.random() < 0.5 ? pick(UNDERSTOOD) : MISSED().slice(0, 2000) }, headers: account });
      } else if (roll < 0.95) {
        await call(t.recorder, 'nlp missed', t.base, 'GET', `/bots/${bot.botKey}/missed?limit=100`, { headers: account });
      } else if (roll < 0.98) {
        // a new draft (another example) and its publish: training, off the request thread
        const file: any = structuredClone(bot.file);
        file.nlp.intents[0].examples.push(`where is order ${Math.floor(Math.random() * 1e6)}`);
        const saved = await call(t.recorder, 'nlp save draft', t.base, 'PUT', `/bots/${bot.botKey}`, { body: file, headers: account });
        if (saved.status === 200) await call(t.recorder, 'nlp publish', t.base, 'POST', `/bots/${bot.botKey}/publish`, { headers: account });
      } else {
        await call(t.recorder, 'nlp provider', t.base, 'PUT', `/bots/${bot.botKey}/ai`, {
          body: { BaseUrl: provider.baseUrl, Model: 'soak-model', EmbeddingModel: 'soak-embed', ApiKey: 'sk-soak' },
          headers: account,
        });
      }
      const left = 1000 / rate - (performance.now() - started);
      if (left > 0) await sleep(Math.min(left, Math.max(0, t.until - performance.now())));
    }
  })();
}
