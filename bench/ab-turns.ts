// Two checkouts' chat turns, interleaved: the rule "no change may make chat turns slower" asks
// for before/after runs that alternate, and whole `npm run bench` runs a minute apart drift with
// the machine (the same checkout's baseline moved by ±15 % between runs here). This starts one
// server of each checkout side by side (its own compiled dist/, `npm start`'s flags, SQLite in a
// fresh folder, the bench bot and 1,000 conversations), then loads them in turn, A B B A …, a few
// seconds each, so that both meet the same machine. Reported: turns/s and server CPU µs a turn
// per side (median of the rounds), and the median of the per-pair ratios B/A.
//   npx tsx bench/ab-turns.ts <checkout A> <checkout B> [--rounds 8] [--seconds 5] [--connections 50]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installCleanup, startChild, type Child } from './children.js';
import { measure, type LoadResult } from './load.js';
import { ADMIN_TOKEN, checkTurn, createTenant, startConversations, type Tenant, userId } from './setup.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const [dirA, dirB] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const ROUNDS = option('--rounds', 8);
const SECONDS = option('--seconds', 5);
const CONNECTIONS = option('--connections', 50);
const CONVERSATIONS = 1000;

if (!dirA || !dirB) {
  process.stderr.write('usage: npx tsx bench/ab-turns.ts <checkout A> <checkout B> [--rounds 8] [--seconds 5] [--connections 50]\n');
  process.exit(64);
}

interface Side {
  label: string;
  server: Child;
  tenant: Tenant;
  dataDir: string;
  results: LoadResult[];
}

async function startSide(label: string, dir: string): Promise<Side> {
  const root = path.resolve(dir);
  process.stdout.write(`${label}: ${root} (${execFileSync('git', ['log', '--oneline', '-1'], { cwd: root, encoding: 'utf8' }).trim()}), compiling\n`);
  execFileSync(process.execPath, ['bin/build.js'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const flags = start.match(/--[\w-]+(?:=\S+)?/g) ?? [];
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `colloquy-ab-${label}-`)),
    COLLOQUY_DEMO: '0',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    COLLOQUY_TOKEN_MINUTES: '600',
    LOG_LEVEL: 'warn',
  };
  const server = await startChild({ name: label, cwd: root, args: [...flags, 'dist/cli.js', 'serve'], env });
  const tenant = await createTenant(server.url);
  await startConversations(server.url, tenant.botToken, CONVERSATIONS);
  await checkTurn(server.url, tenant.botToken, userId(0));
  return { label, server, tenant, dataDir: env.COLLOQUY_DATA_DIR, results: [] };
}

function load(side: Side, warmupSeconds: number) {
  let next = 0;
  return {
    url: side.server.url,
    path: '/custom/chat',
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds,
    pid: side.server.pid,
    headers: { authorization: `Bearer ${side.tenant.botToken}` },
    body: () => JSON.stringify({ UserId: userId(next++ % CONVERSATIONS), Text: 'Where is my order?' }),
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

installCleanup((ROUNDS * 2 * (SECONDS + 3) + 300) * 1000);
const a = await startSide('A', dirA);
const b = await startSide('B', dirB);
try {
  for (let round = 0; round < ROUNDS; round++) {
    // A B, then B A: neither side always runs on a machine the other has just warmed
    const order = round % 2 === 0 ? [a, b] : [b, a];
    for (const side of order) side.results.push(await measure(`round ${round + 1} ${side.label}`, load(side, round === 0 ? 3 : 1)));
  }
  const perSecond = (s: Side) => median(s.results.map((r) => r.perSecond));
  const cpu = (s: Side) => median(s.results.map((r) => r.cpuUsPerRequest ?? Number.NaN));
  const ratios = (f: (r: LoadResult) => number) => median(a.results.map((r, i) => f(b.results[i]!) / f(r)));
  process.stdout.write(
    [
      `\n${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections; load average now ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
      `A: median ${perSecond(a).toFixed(0)} turns/s, ${cpu(a).toFixed(0)} µs CPU a turn`,
      `B: median ${perSecond(b).toFixed(0)} turns/s, ${cpu(b).toFixed(0)} µs CPU a turn`,
      `B/A, median of the pairs: throughput ${ratios((r) => r.perSecond).toFixed(3)}, CPU a turn ${ratios((r) => r.cpuUsPerRequest ?? Number.NaN).toFixed(3)}, p99 ${ratios((r) => r.p99).toFixed(3)}\n`,
    ].join('\n'),
  );
} finally {
  await Promise.all([a.server.stop(), b.server.stop()]);
  for (const side of [a, b]) fs.rmSync(side.dataDir, { recursive: true, force: true });
}
