// What the built-in model costs (issue 36; docs/limits.md "The built-in model"): CPU per text on
// this machine (one question at a time, and passages 64 to a batch as indexing sends them), the
// memory (RSS) of a server before and after the model is loaded, and chat turns, one after
// another over HTTP, of a bot with intents and of a bot without, with the model on and off
// (alternating runs: a bot without intents must not be slower with the model on). In-process
// servers on SQLite, no network. Runs on its own (`npx tsx bench/builtin-model.ts`, about a
// minute) or from run.ts.
import { BuiltinModel, DEFAULT_BUILTIN_MODEL_LIMITS } from '../src/understanding/builtin-model/pool.js';
import { startBenchServer } from './in-process-server.js';
import { ADMIN_TOKEN, benchBot, call } from './setup.js';

const TEXTS = 200;
const TURNS = 100;
const ROUNDS = 2;

export interface BuiltinModelFigures {
  loadMs: number;
  cpuMsPerQuestion: number;
  cpuMsPerPassage: number;
  rssBeforeMb: number;
  rssLoadedMb: number;
  /** mean ms per turn: [with intents, without intents] × [model on, model off] */
  turnMs: { intentsOn: number; intentsOff: number; plainOn: number; plainOff: number };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function cpuPerText(): Promise<Pick<BuiltinModelFigures, 'loadMs' | 'cpuMsPerQuestion' | 'cpuMsPerPassage'>> {
  const model = new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, queue: 1_000, cacheEntries: 0 });
  const long = { timeoutMs: 600_000 };
  try {
    const loading = performance.now();
    await model.embed(['warm up'], long);
    const loadMs = performance.now() - loading;
    // process.cpuUsage counts every thread of the process: the model's thread is most of it
    let since = process.cpuUsage();
    for (let i = 0; i < TEXTS; i++) await model.embed([`can I change the delivery address of order ${i} please`], long);
    const cpuMsPerQuestion = cpuMs(since) / TEXTS;
    const passage = (i: number) => `Returns ${i}\n\n${'You may return any item within 30 days of delivery, unused and in its box; the refund reaches your card within five working days. '.repeat(4)}`;
    since = process.cpuUsage();
    await model.embed(
      Array.from({ length: TEXTS }, (_, i) => passage(i)),
      long,
    );
    return { loadMs, cpuMsPerQuestion, cpuMsPerPassage: cpuMs(since) / TEXTS };
  } finally {
    model.stop();
  }
}

const intentsBot = {
  ...benchBot,
  triggers: [{ intent: 'refund', actions: [{ type: 'text', text: 'Refunds take 14 days.' }] }],
  nlp: {
    intents: [
      { name: 'refund', examples: ['I want a refund', 'refund my order please', 'give me my refund', 'how do I get a refund'] },
      { name: 'delivery', examples: ['where is my parcel', 'when will my order arrive', 'track my delivery', 'my package is late'] },
    ],
  },
};

async function server(model: 'on' | 'off') {
  const running = await startBenchServer('builtin', { env: { COLLOQUY_BUILTIN_MODEL: model } });
  const base = running.url;
  const account = await call(base, 'POST', '/admin/accounts', { Name: 'Bench', Plan: 'standard', Packages: [] }, ADMIN_TOKEN);
  const tokenOf = async (bot: unknown) => {
    const made = await call(base, 'POST', '/bots', bot, (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: account.AccountAPIKey })).token);
    return (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: account.AccountAPIKey, BotAPIKey: made.APIKey, BotAPISecret: made.APISecret })).token as string;
  };
  const tokens = { intents: await tokenOf(intentsBot), plain: await tokenOf(benchBot) };
  return { base, tokens, close: running.close };
}

/** Mean ms of a turn, TURNS turns one after another, each with a text not seen before. */
async function turns(base: string, token: string, salt: string): Promise<number> {
  const user = `bench-builtin-${salt}`;
  await call(base, 'POST', '/custom/chat', { UserId: user }, token);
  for (let i = 0; i < 10; i++) await call(base, 'POST', '/custom/chat', { UserId: user, Text: `warm up ${salt} ${i}` }, token);
  const started = performance.now();
  for (let i = 0; i < TURNS; i++) await call(base, 'POST', '/custom/chat', { UserId: user, Text: `could I have my money back for order ${salt}${i}` }, token);
  return (performance.now() - started) / TURNS;
}

async function serverFigures(): Promise<Pick<BuiltinModelFigures, 'rssBeforeMb' | 'rssLoadedMb' | 'turnMs'>> {
  const sums = { intentsOn: 0, intentsOff: 0, plainOn: 0, plainOff: 0 };
  let rssBeforeMb = 0;
  let rssLoadedMb = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const model of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const s = await server(model);
      try {
        if (model === 'on' && round === 0) rssBeforeMb = process.memoryUsage().rss / 1e6;
        // the first texts of the intents bot queue its examples' embedding (and load the model): wait
        // for it with a paraphrase nlp.js alone misses (no word of the refund examples)
        if (model === 'on')
          for (let i = 0; i < 300; i++) {
            const reply = await call(s.base, 'POST', '/custom/chat', { UserId: `ready-${round}`, Text: 'I would like my money back' }, s.tokens.intents);
            if (JSON.stringify(reply).includes('Refunds take 14 days')) break;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        if (model === 'on' && round === 0) rssLoadedMb = process.memoryUsage().rss / 1e6;
        const on = model === 'on';
        sums[on ? 'intentsOn' : 'intentsOff'] += await turns(s.base, s.tokens.intents, `i${round}${model}`);
        sums[on ? 'plainOn' : 'plainOff'] += await turns(s.base, s.tokens.plain, `p${round}${model}`);
      } finally {
        await s.close();
      }
    }
  }
  const mean = (x: number) => x / ROUNDS;
  return { rssBeforeMb, rssLoadedMb, turnMs: { intentsOn: mean(sums.intentsOn), intentsOff: mean(sums.intentsOff), plainOn: mean(sums.plainOn), plainOff: mean(sums.plainOff) } };
}

export async function measureBuiltinModel(): Promise<BuiltinModelFigures> {
  // the model's threads do not keep a process alive on their own
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    // the servers first: the RSS before the model is loaded must not hold an earlier load's memory
    const servers = await serverFigures();
    return { ...(await cpuPerText()), ...servers };
  } finally {
    clearInterval(keepAlive);
  }
}

export function describeBuiltinModel(f: BuiltinModelFigures): string {
  const ms = (x: number) => x.toFixed(1);
  return [
    `built-in model: first load ${Math.round(f.loadMs)} ms; CPU ${ms(f.cpuMsPerQuestion)} ms per question (one at a time), ${ms(f.cpuMsPerPassage)} ms per passage (~500 characters, 64 a batch)`,
    `server RSS: ${Math.round(f.rssBeforeMb)} MB before the model is loaded, ${Math.round(f.rssLoadedMb)} MB with it loaded (+${Math.round(f.rssLoadedMb - f.rssBeforeMb)} MB)`,
    `turns one after another, mean ms: bot with intents ${ms(f.turnMs.intentsOn)} (model on) / ${ms(f.turnMs.intentsOff)} (off); bot without intents ${ms(f.turnMs.plainOn)} (on) / ${ms(f.turnMs.plainOff)} (off)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(describeBuiltinModel(await measureBuiltinModel()));
