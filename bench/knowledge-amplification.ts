// Issue 35, finding 2: documents small on the wire and large once read, measured from outside a
// server run as a child process (`npx tsx bench/knowledge-amplification.ts [--pg URL]`):
//   1. a DOCX of 40 MiB of XML zipped to about 100 KB;
//   2. a 1 MB PDF of 6,500 pages sharing one content stream (the issue's);
//   3. a text source of 20,000 one-line sections (20,000 passages, the most a source may hold);
//   4. with the bot at 100,000 passages (five such sources): search and ask p50 (ask is what a
//      `knowledge` step of a chat turn runs), reading one source whole, deleting it.
// For each: the time to answer, the status, the slowest /health answered meanwhile (polled one
// after the other from this process) and the server's largest resident memory (VmRSS).
// Run it on two checkouts to compare (the figures of docs/performance.md "Document amplification").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild, killAllChildren } from './children.js';
import { ADMIN_TOKEN, call } from './setup.js';
import { documentXml, docxOfXml, sharedStreamPdf } from '../test/support/knowledge-files.js';

const argv = process.argv.slice(2);
const pgUrl = argv.includes('--pg') ? argv[argv.indexOf('--pg') + 1] : null;
const MiB = 1024 * 1024;
const ROOT = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-amplification-'));

const server = await startChild({
  name: 'colloquy',
  cwd: ROOT,
  args: ['--import', 'tsx', 'src/cli.ts', 'serve'],
  env: {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: dataDir,
    COLLOQUY_DEMO: '0',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
  },
  startTimeoutMs: 120_000,
});
const url = server.url;

const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Runs `work` while /health is polled and memory sampled: its time, the slowest /health, the peak RSS. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; healthMaxMs: number; rssMaxMb: number }> {
  let done = false;
  let healthMaxMs = 0;
  let rssMaxMb = rss();
  const poll = (async () => {
    while (!done) {
      const at = performance.now();
      await fetch(`${url}/health`).then((r) => r.arrayBuffer());
      healthMaxMs = Math.max(healthMaxMs, performance.now() - at);
      rssMaxMb = Math.max(rssMaxMb, rss());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const at = performance.now();
  const result = await work();
  const ms = performance.now() - at;
  done = true;
  await poll;
  return { result, ms: Math.round(ms), healthMaxMs: Math.round(healthMaxMs), rssMaxMb: Math.round(rssMaxMb) };
}

async function tenant(): Promise<{ token: string; base: string }> {
  const account = await call(url, 'POST', '/admin/accounts', { Name: 'Bench', Plan: 'standard', Packages: [] }, ADMIN_TOKEN);
  const token = (await call(url, 'POST', '/authorization/integration', { AccountAPIKey: account.AccountAPIKey })).token;
  const bot = await call(url, 'POST', '/bots', { Name: 'Amplification', Behaviours: [] }, token).catch(() => null);
  const key = bot?.APIKey ?? (await call(url, 'POST', '/bots', (await import('./setup.js')).benchBot, token)).APIKey;
  return { token, base: `/bots/${key}/knowledge` };
}

async function send(
  t: { token: string; base: string },
  method: string,
  pathName: string,
  body?: { file: { name: string; data: Buffer } } | object,
): Promise<{ status: number; bytes: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
  let payload: BodyInit | undefined;
  if (body && 'file' in body) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body.file.data)]), body.file.name);
    payload = form;
  } else if (body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(url + t.base + pathName, { method, headers, body: payload });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, bytes: text.length, body: parsed };
}

// under 1 MiB: indexed before the 201 answers
const sections = (n: number, from: number) => Array.from({ length: n }, (_, i) => `# t${from + i}\nitem${from + i} ships in ${i % 9} days.`).join('\n');
const row = (name: string, m: Awaited<ReturnType<typeof measured<{ status: number; body: any }>>>) => {
  const b = m.result.body ?? {};
  console.log(JSON.stringify({ step: name, status: m.result.status, code: b.Code, limit: b.Limit, chunks: b.Chunks, ms: m.ms, healthMaxMs: m.healthMaxMs, rssMaxMb: m.rssMaxMb }));
};
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const t = await tenant();
  const paragraph = `<w:p><w:r><w:t>${'lorem ipsum '.repeat(80)}</w:t></w:r></w:p>`;
  const bomb = await docxOfXml(documentXml(paragraph.repeat(Math.ceil((40 * MiB) / paragraph.length))));
  console.log(JSON.stringify({ docxBytes: bomb.length }));
  row('docx 40 MiB of XML', await measured(() => send(t, 'POST', '', { file: { name: 'bomb.docx', data: bomb } })));
  const pdf = sharedStreamPdf(6_500, ['Pets travel in the cabin in a closed carrier.', 'Refunds are paid within fourteen days.', 'Luggage of 23 kg goes in the hold.', 'Seats may be chosen online.']);
  console.log(JSON.stringify({ pdfBytes: pdf.length }));
  row('pdf 6,500 pages, one stream', await measured(() => send(t, 'POST', '', { file: { name: 'pages.pdf', data: pdf } })));

  const big = await tenant();
  const ids: string[] = [];
  for (let n = 0; n < 5; n++) {
    const m = await measured(() => send(big, 'POST', '', { Name: `part ${n}`, Text: sections(20_000, n * 20_000) }));
    row(`text of 20,000 passages (#${n + 1})`, m);
    ids.push(m.result.body?.SourceId);
  }
  const searches: number[] = [];
  const asks: number[] = [];
  for (let i = 0; i < 30; i++) {
    let at = performance.now();
    await send(big, 'POST', '/search', { Text: `when does item${i * 3000} ship days` });
    searches.push(performance.now() - at);
    at = performance.now();
    await send(big, 'POST', '/ask', { Text: `when does item${i * 3000} ship` });
    asks.push(performance.now() - at);
  }
  console.log(JSON.stringify({ step: 'bot at 100,000 passages', searchP50Ms: Math.round(p50(searches)), askP50Ms: Math.round(p50(asks)) }));
  const read = await measured(() => send(big, 'GET', `/${ids[0]}`));
  console.log(JSON.stringify({ step: 'GET a source of 20,000 passages', status: read.result.status, bytes: read.result.bytes, ms: read.ms, healthMaxMs: read.healthMaxMs, rssMaxMb: read.rssMaxMb }));
  row('DELETE a source of 20,000 passages', await measured(() => send(big, 'DELETE', `/${ids[1]}`)));
} finally {
  await server.stop();
  killAllChildren();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
