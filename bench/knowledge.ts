// Retrieval benchmark (issue 24): `npm run bench -- --knowledge [--kb-mb N] [--kb-db sqlite|postgres|both]`
// or `npx tsx bench/knowledge.ts …`. On each database, one in-process server and a local
// OpenAI-compatible double for chat and embeddings (test/support/ai-double.ts: concept vectors):
//   1. indexing: N MB of text (default 50) across 200 sources, 4 uploads at a time;
//   2. search p50/p99 at 20 concurrent questions, words only;
//   3. embedding every passage after EmbeddingModel is set (the double answers at once: this is
//      the server's share of the cost, not a real model's);
//   4. search p50/p99 at 20 concurrent questions, hybrid;
//   5. the answer step's added latency (POST …/ask with the chat double minus …/search);
//   (search p50 one question at a time too: on a shared machine the concurrent figures are mostly queueing)
//   6. recall@5 on a labelled set of 20 planted passages (10 asked with their own words, 10 in
//      other words), words only and hybrid.
// PostgreSQL: a database colloquy_bench_kb_<random> on 127.0.0.1, dropped at the end.
import { AiDouble } from '../test/support/ai-double.js';
import { startBenchServer } from './in-process-server.js';
import { call, createTenant } from './setup.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const MB = Number(option('--kb-mb', '50'));
const SOURCES = 200;
const CONCURRENCY = 20;
const QUESTIONS = 400;

/** Planted passages: [passage, question in its words, question in other words]. */
const NEEDLES: ReadonlyArray<readonly [string, string, string]> = [
  ['Dogs may fly in the cabin inside a crate.', 'can dogs fly in the cabin in a crate', 'could my kitten journey aboard in a kennel'],
  ['A suitcase refund is paid when the flight is cancelled.', 'suitcase refund when flight cancelled', 'money back for my baggage if the trip is called off'],
  ['An agent answers the phone about every parcel.', 'agent phone parcel', 'a representative to ring about my package'],
  ['Heavy luggage costs a fee at the desk.', 'heavy luggage fee', 'price for a weighty bag'],
  ['Track your order status online.', 'track order status online', 'locate my shipment on the web'],
  ['Pets pay a charge for every trip.', 'pets charge every trip', 'what do animals cost per journey'],
  ['Staff refund cancelled deliveries.', 'staff refund cancelled deliveries', 'does a person reimburse a package that was called off'],
  ['A carrier for a cat must be soft.', 'carrier cat soft', 'kennel for my feline'],
  ['Seat upgrades have a price.', 'seat upgrade price', 'how expensive is a better place aboard'],
  ['Operators locate lost baggage.', 'operators locate lost baggage', 'someone to track my missing suitcase'],
];

/** A source's text: numbered sections of clauses, each with words found in no other source. */
export const filler = (seed: number, bytes: number): string => {
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < bytes; s++) {
    const block = `# Section ${seed}-${s} about topic${seed}x${s}\n\n${Array.from({ length: 10 }, (_, i) => `Clause ${i} of part ${s} sets rule${seed}r${s}r${i} for item${seed * 1000 + s * 10 + i}.`).join(' ')}\n`;
    parts.push(block);
    size += block.length;
  }
  // ASCII: characters are bytes; the bot's 50 MiB must hold exactly what was asked for
  return parts.join('\n').slice(0, bytes);
};

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const round = (x: number) => Math.round(x * 10) / 10;

async function timed(questions: string[], ask: (q: string) => Promise<unknown>, concurrency = CONCURRENCY): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < questions.length) {
        const q = questions[next++];
        const t = performance.now();
        await ask(q);
        times.push(performance.now() - t);
      }
    }),
  );
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
}

async function runOn(kind: 'sqlite' | 'postgres'): Promise<Record<string, unknown>> {
  const ai = await AiDouble.start();
  ai.fallback = { content: JSON.stringify({ answer: 'From the documents.', sources: [1] }) };
  const running = await startBenchServer('kb', { database: kind });
  try {
    const base = running.url;
    const tenant = await createTenant(base);
    const accountToken = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey })).token;
    const kb = `/bots/${tenant.botKey}/knowledge`;
    const perSource = Math.floor((MB * 1024 * 1024) / SOURCES);
    const started = performance.now();
    let made = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (made < SOURCES) {
          const i = made++;
          const needle = i < NEEDLES.length ? `\n\n# Notice ${i}\n\n${NEEDLES[i][0]}\n` : '';
          await call(base, 'POST', kb, { Name: `Doc ${i}`, Text: filler(i, perSource - needle.length) + needle }, accountToken);
        }
      }),
    );
    const indexingS = round((performance.now() - started) / 1000);
    const listed = (await call(base, 'GET', kb, undefined, accountToken)).Result as Array<{ Chunks: number; Embedded: number; Status: string }>;
    const passages = listed.reduce((n, s) => n + s.Chunks, 0);
    const questions = Array.from({ length: QUESTIONS }, (_, i) => (i % 2 === 0 ? NEEDLES[i % NEEDLES.length][1] : `rule${i % SOURCES}r${i % 7}r${i % 10} item${i}`));
    const search = (q: string) => call(base, 'POST', `${kb}/search`, { Text: q, Limit: 5 }, accountToken);
    const recall = async () => {
      let hits = 0;
      for (const [passage, own, other] of NEEDLES) for (const q of [own, other]) if ((await search(q)).Result.some((r: { Text: string }) => r.Text === passage)) hits++;
      return `${hits}/${NEEDLES.length * 2}`;
    };
    const wordsSearch = await timed(questions, search);
    const wordsAlone = await timed(questions.slice(0, 100), search, 1);
    const wordsRecall = await recall();
    const embedStarted = performance.now();
    await call(base, 'PUT', `/bots/${tenant.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'bench-chat', EmbeddingModel: 'bench-embed' }, accountToken);
    for (;;) {
      const now = (await call(base, 'GET', kb, undefined, accountToken)).Result as Array<{ Chunks: number; Embedded: number }>;
      if (now.reduce((n, s) => n + s.Embedded, 0) >= passages) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const embeddingS = round((performance.now() - embedStarted) / 1000);
    const hybridSearch = await timed(questions, search);
    const hybridAlone = await timed(questions.slice(0, 100), search, 1);
    const hybridRecall = await recall();
    const few = questions.slice(0, 100);
    const searchOnly = await timed(few, search);
    const asked = await timed(few, (q) => call(base, 'POST', `${kb}/ask`, { Text: q }, accountToken));
    return {
      database: kind,
      megabytes: MB,
      sources: SOURCES,
      passages,
      indexingS,
      embeddingS,
      wordsAloneP50: wordsAlone.p50,
      hybridAloneP50: hybridAlone.p50,
      wordsSearchP50: wordsSearch.p50,
      wordsSearchP99: wordsSearch.p99,
      hybridSearchP50: hybridSearch.p50,
      hybridSearchP99: hybridSearch.p99,
      askP50: asked.p50,
      askP99: asked.p99,
      answerAddsP50: round(asked.p50 - searchOnly.p50),
      wordsRecallAt5: wordsRecall,
      hybridRecallAt5: hybridRecall,
    };
  } finally {
    await running.close();
    await ai.close();
  }
}

export async function knowledgeBench(): Promise<void> {
  const which = option('--kb-db', 'both');
  const kinds = which === 'both' ? (['sqlite', 'postgres'] as const) : [which as 'sqlite' | 'postgres'];
  for (const kind of kinds) console.log(JSON.stringify(await runOn(kind)));
}

if (import.meta.url === `file://${process.argv[1]}`) await knowledgeBench();
