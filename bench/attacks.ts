// npm run bench:attacks [-- --timeout S] [--only TEXT]: the attacks of issue 35 against a real
// server, one at a time, each on a freshly started server (a server an earlier attack left
// spinning would spoil the next figures). SQLite by default; with DATABASE_URL set (a PostgreSQL
// server on 127.0.0.1), a database colloquy_attacks_<random> is made on it and dropped at the end.
//
// For each attack: the answer (status and Code, counted when there are several requests), the
// time to the last answer, /health probed every 50 ms from the start of the attack to 5 s after
// its answer (bench/health-probe.ts), the server's RSS before, at its peak and after, and the
// passages a document source became. An attack with no answer in --timeout seconds (default 60)
// is reported as such and its server killed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTACKS, type Answer, type Attack } from './attack-list.js';
import { installCleanup, killAllChildren, runCleanups, startChild } from './children.js';
import { formatMs, HealthProbe, healthLine } from './health-probe.js';
import { createPgDatabase } from './pg-database.js';
import { ADMIN_TOKEN, call, createTenant } from './setup.js';
import { rssOf } from './soak-stats.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const TIMEOUT_MS = Number(option('--timeout') ?? 60) * 1000;
const ONLY = option('--only');
const TAIL_MS = 5000;

const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number | null) => (bytes === null || !Number.isFinite(bytes) ? '?' : `${Math.round(bytes / 1048576)}`);

interface Result {
  attack: Attack;
  answers: Answer[] | null;
  ms: number;
  health: string;
  rss: string;
  passages: string;
}

/** "201 ×6, 413 LIMIT_EXCEEDED ×34" */
function answersLine(answers: Answer[] | null): string {
  if (answers === null) return `no answer in ${TIMEOUT_MS / 1000} s`;
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(`${a.status}${a.code ? ` ${a.code}` : ''}`, (counts.get(`${a.status}${a.code ? ` ${a.code}` : ''}`) ?? 0) + 1);
  return [...counts].map(([k, n]) => (answers.length > 1 ? `${k} ×${n}` : k)).join(', ');
}

async function runOne(attack: Attack, databaseUrl: string | null): Promise<Result> {
  const input = await attack.prepare?.();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-attacks-'));
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: dataDir,
    COLLOQUY_DEMO: '0',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const server = await startChild({ name: 'colloquy', cwd: ROOT, args: ['--import', 'tsx', 'src/cli.ts', 'serve'], env });
  try {
    const tenant = await createTenant(server.url);
    const accountToken = (await call(server.url, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey })).token;
    await sleep(1000); // the start's own work (migrations, warm-up) is not the attack's
    const before = rssOf(server.pid);
    let peak = before ?? 0;
    const peakTimer = setInterval(() => (peak = Math.max(peak, rssOf(server.pid) ?? 0)), 100);
    const probe = new HealthProbe(server.url, 50);
    const abort = new AbortController();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const answers = await Promise.race([
      attack.run({ base: server.url, accountToken, botKey: tenant.botKey }, input, abort.signal).catch((error: Error) => [{ status: 0, code: error.name }] as Answer[]),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    const ms = performance.now() - started;
    if (answers === null) abort.abort();
    else await sleep(TAIL_MS);
    const health = await probe.stop();
    clearInterval(peakTimer);
    const after = rssOf(server.pid);
    if (answers === null) process.kill(server.pid, 'SIGKILL'); // it may spin for minutes more
    const passages = (answers ?? []).map((a) => a.passages).filter((p): p is number => typeof p === 'number');
    return {
      attack,
      answers,
      ms,
      health: healthLine(health),
      rss: `${mb(before)} → ${mb(after)} (peak ${mb(peak)})`,
      passages: passages.length ? String(passages.reduce((a, b) => a + b, 0)) : '-',
    };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const attacks = ATTACKS.filter((a) => !ONLY || a.name.includes(ONLY));
  installCleanup(attacks.length * (TIMEOUT_MS + 120_000) + 60_000);
  const pgServer = process.env.DATABASE_URL;
  const databaseUrl = pgServer ? (await createPgDatabase(pgServer, 'colloquy_attacks', say)).url : null;
  const database = databaseUrl ? 'PostgreSQL' : 'SQLite';
  say(`Colloquy attacks (issue 35) on ${database}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString()}; each on a fresh server, given up after ${TIMEOUT_MS / 1000} s`);
  const results: Result[] = [];
  for (const attack of attacks) {
    const result = await runOne(attack, databaseUrl);
    results.push(result);
    say(`- ${attack.name}: ${answersLine(result.answers)} after ${formatMs(result.ms)}; /health ${result.health}; RSS ${result.rss} MB; passages ${result.passages}`);
  }
  say('');
  say(`| attack (${database}) | route | size | answer | time to answer | /health during it (every 50 ms, to 5 s after) | RSS MB before → after (peak) | passages |`);
  say('|---|---|---|---|---|---|---|---|');
  for (const r of results)
    say(`| ${r.attack.name} | ${r.attack.route} | ${r.attack.size ?? '-'} | ${answersLine(r.answers)} | ${r.answers === null ? '-' : formatMs(r.ms)} | ${r.health} | ${r.rss} | ${r.passages} |`);
  say(
    `\nload average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  return 0;
}

main().then(
  async (code) => {
    await runCleanups();
    process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(`attacks: ${(error as Error).stack ?? String(error)}\n`);
    killAllChildren();
    await runCleanups();
    process.exit(1);
  },
);
