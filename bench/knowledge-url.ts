// Issue 35 finding 3: many large `Url` sources at once. A site of the bench's own serves pages of
// 10 MiB (minus 1 KiB, under the source limit, with a Content-Length); a `colloquy serve` child
// (SQLite in a temporary folder) gets CONCURRENCY adds at once, spread over BOTS bots. Measured:
// wall time until every add answered, the answers by status and Code, the bytes the site served,
// the server's RSS before / at its peak (VmHWM) / when the last add answered / once indexing is
// over, /health's latency polled every 20 ms during the burst, and how the sources taken ended. `npx tsx bench/knowledge-url.ts [CONCURRENCY=40] [BOTS=10]`.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTenant, type Tenant } from '../test/support/fixtures.js';
import { longDocument } from '../test/support/knowledge-kit.js';
import { startNode } from '../test/support/node-process.js';

const concurrency = Number(process.argv[2] ?? 40);
const botCount = Number(process.argv[3] ?? 10);
const page = Buffer.from(longDocument(10 * 1024 * 1024).slice(0, 10 * 1024 * 1024 - 1024));

let served = 0;
const site = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': page.byteLength });
  // in 64 KiB writes, counted as the socket takes them: a client that stops reading stops the count
  let at = 0;
  const pump = () => {
    while (at < page.byteLength) {
      const chunk = page.subarray(at, at + 65_536);
      at += chunk.byteLength;
      const more = res.write(chunk, () => (served += chunk.byteLength));
      if (!more) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-url-bench-'));
const node = await startNode({ COLLOQUY_DATA_DIR: dataDir });
const pid = node.child.pid!;
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

try {
  const tenants: Tenant[] = [];
  for (let i = 0; i < botCount; i++) tenants.push(await createTenant(node.client));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBefore = status('VmRSS');

  let polling = true;
  const latencies: number[] = [];
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      await node.client.get('/health');
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: concurrency }, (_, i) => {
      const t = tenants[i % botCount];
      return node.client.post(`/bots/${t.botKey}/knowledge`, { Url: `${siteUrl}/page/${i}.txt` }, { token: t.accountToken });
    }),
  );
  const wallMs = performance.now() - started;
  polling = false;
  await poller;
  const rssAfterBurst = status('VmRSS');

  const byAnswer = new Map<string, number>();
  for (const a of answers) {
    const key = `${a.status} ${a.body?.Code ?? a.body?.Status ?? ''}${a.body?.Limit ? ` ${a.body.Limit}` : ''}`;
    byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1);
  }
  // where the sources that were taken ended once indexing is over (a full indexing queue fails them)
  const ended = new Map<string, number>();
  for (const t of tenants) {
    for (let i = 0; i < 360; i++) {
      const list = (await node.client.get(`/bots/${t.botKey}/knowledge`, { token: t.accountToken })).body.Result as Array<{ Status: string }>;
      if (list.every((s) => s.Status !== 'indexing') || i === 359) {
        for (const s of list) ended.set(s.Status, (ended.get(s.Status) ?? 0) + 1);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      concurrency,
      bots: botCount,
      wallMs: Math.round(wallMs),
      answers: Object.fromEntries(byAnswer),
      sourcesEnded: Object.fromEntries(ended),
      servedMiB: Math.round(served / 1024 / 102.4) / 10,
      rssMb: { before: Math.round(rssBefore), peak: Math.round(status('VmHWM')), afterBurst: Math.round(rssAfterBurst), afterIndexing: Math.round(status('VmRSS')) },
      healthMs: {
        polls: latencies.length,
        p50: Math.round(latencies[Math.floor(latencies.length / 2)]),
        p99: Math.round(latencies[Math.floor(latencies.length * 0.99)]),
        max: Math.round(latencies[latencies.length - 1]),
      },
    }),
  );
} finally {
  await node.stop();
  site.closeAllConnections();
  site.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
