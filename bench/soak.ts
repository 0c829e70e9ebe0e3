// npm run soak [-- flags]: one Colloquy node under mixed traffic for a set time, to find what only
// time shows (errors that come late, latency that creeps, memory or a database that grows). The
// traffic includes intents, entities and AI steps against a provider that sometimes answers far
// past the size cap (bench/soak-understanding.ts), and bot-file saves (JSON and YAML) and small
// document uploads (bench/soak-files.ts); the database's size is sampled with memory, and /health
// is probed every 100 ms (p50, p99, max in the summary).
//
//   --minutes N     how long the traffic runs (default 10; fractions allowed, e.g. 0.5)
//   --rate N        requests a second, all kinds together (default 40; the two console event
//                   streams come on top)
//   --every N       seconds per progress line (default 30)
//   --users N       conversations per bot on the custom channel (default 100; the AI bot has a fifth)
//   --visitors N    web visitors at most: once N have started, web traffic is theirs coming back
//                   (default: a new visitor keeps arriving). With a fixed population, every table
//                   reaches its bound (histories, missed texts, events, outbox) and the database's
//                   size must level off: `npm run soak -- --users 4 --visitors 40` checks that.
//   --postgres      PostgreSQL instead of SQLite: a database colloquy_soak_<random> is created on
//                   --pg-url for the run and dropped at the end, however the run ends
//   --pg-url URL    default postgres://postgres@127.0.0.1:5432/postgres (only 127.0.0.1)
//   --keep          keep the data directory (printed at the start)
//
// The server is a child process (`node --import tsx src/cli.ts serve`, LOG_LEVEL=warn, rate limits
// off as for every benchmark); traffic, the webhook receiver and the server are all on
// 127.0.0.1. Every --every seconds a line: requests, 5xx, other non-2xx by status and Code, p50
// and p99 of that window, the server's RSS and heap. At the end a table per kind of traffic and
// the memory growth between the first and the last minute. Exit status 1 when any request got a
// 5xx or no answer, a webhook call was not signed right, or the server died; 2 for bad flags.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { growthLines, tableSizes } from './soak-tables.js';
import { createPgDatabase } from './pg-database.js';
import { installCleanup, killAllChildren, onCleanup, runCleanups, startChild, type Child } from './children.js';
import { failed, Recorder, summaryTable, windowLine } from './soak-stats.js';
import { ADMIN_TOKEN, call, Receiver, runTraffic, seed } from './soak-traffic.js';
import { seedFiles, filesWorker } from './soak-files.js';
import { HealthProbe, healthLine } from './health-probe.js';
import { seedUnderstanding, SoakProvider, understandingWorker } from './soak-understanding.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BOT_FILE = new URL('../assets/support.bot.json', import.meta.url);
const MEMORY_EVERY_MS = 5000;
const HEALTH_EVERY_MS = 100;

function parseOptions(argv: string[]) {
  const valued = new Set(['--minutes', '--rate', '--every', '--pg-url', '--users', '--visitors']);
  const known = new Set([...valued, '--postgres', '--keep']);
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    if (!known.has(argv[i])) throw new Error(`unknown flag ${argv[i]} (the flags are described at the top of bench/soak.ts)`);
    if (valued.has(argv[i])) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`${argv[i - 1]} needs a value`);
      values.set(argv[i - 1], value);
    }
  }
  const positive = (name: string, fallback: number, max: number) => {
    const value = values.has(name) ? Number(values.get(name)) : fallback;
    if (!Number.isFinite(value) || value <= 0 || value > max) throw new Error(`${name} must be a number above 0 and at most ${max}`);
    return value;
  };
  const pgUrl = values.get('--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (new URL(pgUrl).hostname !== '127.0.0.1') throw new Error(`--pg-url must be on 127.0.0.1, got ${pgUrl}`);
  return {
    minutes: positive('--minutes', 10, 24 * 60),
    rate: positive('--rate', 40, 1000),
    every: positive('--every', 30, 3600),
    users: Math.round(positive('--users', 100, 10_000)),
    visitors: values.has('--visitors') ? Math.round(positive('--visitors', 0, 1_000_000)) : Infinity,
    postgres: argv.includes('--postgres'),
    keep: argv.includes('--keep'),
    pgUrl,
  };
}

const say = (line = '') => process.stdout.write(`${line}\n`);

async function main(options: ReturnType<typeof parseOptions>): Promise<number> {
  const durationMs = options.minutes * 60_000;
  // the run, plus seeding and shutting down; past that, everything is killed
  installCleanup(durationMs + 5 * 60_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-soak-'));
  if (!options.keep) onCleanup(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  const receiver = await Receiver.start();
  onCleanup(() => receiver.close());
  const provider = await SoakProvider.start();
  onCleanup(() => provider.close());
  const databaseUrl = options.postgres ? (await createPgDatabase(options.pgUrl, 'colloquy_soak', say)).url : null;
  const population = `${options.users} conversations a bot, ${Number.isFinite(options.visitors) ? `at most ${options.visitors} web visitors` : 'new web visitors arriving'}`;
  say(`Colloquy soak: ${options.minutes} min at ${options.rate} requests/s on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${population}, data in ${tmp}`);

  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: tmp,
    COLLOQUY_DEMO: '0',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    // tokens must outlive the run; webhooks go to the receiver on 127.0.0.1
    COLLOQUY_TOKEN_MINUTES: String(Math.ceil(options.minutes) + 60),
    COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const server: Child = await startChild({ name: 'colloquy', cwd: ROOT, args: ['--import', 'tsx', 'src/cli.ts', 'serve'], env });
  let died = false;
  try {
    const recorder = new Recorder();
    const seeded = await seed(recorder, server.url, BOT_FILE, receiver, options.users);
    const files = await seedFiles(recorder, server.url, seeded.accountToken, BOT_FILE);
    const understanding = await seedUnderstanding(recorder, server.url, seeded.accountKey, seeded.accountToken, BOT_FILE, provider, Math.max(1, Math.round(options.users / 5)));
    say(
      `server ${server.url} (pid ${server.pid}); seeded: 1 account, ${seeded.bots.length + 2} bots (one with the webhook and includeAllChannels, one with intents, ` +
        `an entity and AI steps, one whose bot file is saved and documents uploaded), ${seeded.bots.reduce((n, b) => n + b.users.length, 0) + understanding.users.length} conversations, an operator`,
    );
    const database = databaseSize(tmp, databaseUrl);
    const tablesAtStart = await tableSizes(tmp, databaseUrl);
    const sizes: Array<{ at: number; bytes: number }> = [];
    recorder.restart(); // the seeding is not part of the figures

    const traffic = { base: server.url, recorder, seeded, until: performance.now() + durationMs, rate: options.rate, visitors: options.visitors };
    const streams = { events: 0, opened: 0 };
    const startedAt = recorder.now();
    let lastLine = startedAt;
    const extra = () => `webhook calls ${receiver.calls}, console events ${streams.events}, database ${mb(sizes.at(-1)?.bytes)} MB`;
    const sampleSize = async () => sizes.push({ at: recorder.now(), bytes: await database() });
    await sampleSize();
    await recorder.sampleMemory(server.pid, server.url);
    // /health every 100 ms on its own connection: what a load balancer's check would see
    const probe = new HealthProbe(server.url, HEALTH_EVERY_MS);
    let health = probe.figures();
    const memoryTimer = setInterval(() => {
      void recorder.sampleMemory(server.pid, server.url).then((m) => (died ||= m === null));
      void sampleSize().catch(() => undefined);
    }, MEMORY_EVERY_MS);
    const lineTimer = setInterval(() => {
      const now = recorder.now();
      say(windowLine(recorder, lastLine, now, extra()));
      lastLine = now;
    }, options.every * 1000);
    try {
      // the understanding bot's traffic comes on top: a sixth of the rate
      // bot-file saves and document uploads: a twentieth of the rate
      await Promise.all([runTraffic(traffic, streams), understandingWorker(traffic, understanding, provider, options.rate / 6), filesWorker(traffic, files, 1 / 20)]);
    } finally {
      health = await probe.stop();
      clearInterval(memoryTimer);
      clearInterval(lineTimer);
    }
    await recorder.sampleMemory(server.pid, server.url);
    const end = recorder.now();
    if (end - lastLine > 1000) say(windowLine(recorder, lastLine, end, extra()));

    // Webhook deliveries still on their way get a moment; then the delivery log of the hooked bot.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const hooked = seeded.bots[0];
    const log = await call(recorder, 'deliveries', server.url, 'GET', `/bots/${hooked.botKey}/deliveries`, { headers: { authorization: `Bearer ${seeded.accountToken}` } });
    const statuses = new Map<string, number>();
    for (const d of log.body?.Result ?? []) statuses.set(d.Status, (statuses.get(d.Status) ?? 0) + 1);
    const failures = recorder.samples.filter(failed);
    say('');
    say(
      summaryTable(recorder, end - startedAt, [
        `Webhook calls received: ${receiver.calls} (${[...receiver.events].map(([e, n]) => `${e} ${n}`).join(', ') || 'none'}), badly signed: ${receiver.badlySigned}; ` +
          `the latest ${log.body?.Result?.length ?? 0} deliveries listed: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}`,
        `/health probed every ${HEALTH_EVERY_MS} ms during the traffic: ${healthLine(health)}`,
        `Server RSS at the start ${mb(recorder.memory[0]?.rssBytes)} MB, at the end ${mb(recorder.memory.at(-1)?.rssBytes)} MB (sampled every ${MEMORY_EVERY_MS / 1000} s)`,
        `Console event streams: opened ${streams.opened} times, ${streams.events} events received`,
        `AI provider answers: ${[...provider.answered].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
        `Database size: ${sizeGrowth(sizes)}`,
        `Database growth a minute: ${minuteGrowth(sizes)}`,
        `Tables that grew: ${growthLines(tablesAtStart, await tableSizes(tmp, databaseUrl)).join('; ') || 'none'}`,
        `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load average ${os.loadavg()[0].toFixed(1)} at the end; ${databaseUrl ? 'PostgreSQL' : 'SQLite'}`,
      ]),
    );
    const verdict = [
      failures.length ? `${failures.length} requests got a 5xx or no answer` : '',
      receiver.badlySigned ? `${receiver.badlySigned} webhook calls were not signed right` : '',
      died ? 'the server process died' : '',
    ].filter(Boolean);
    say(verdict.length ? `\nFAILED: ${verdict.join('; ')}` : '\nOK: no 5xx, every request answered, every webhook call signed');
    return verdict.length ? 1 : 0;
  } finally {
    await server.stop();
  }
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '?' : (bytes / 1048576).toFixed(1));

/** The database's size on disk: the SQLite files (with the WAL), or PostgreSQL's pg_database_size. */
function databaseSize(dataDir: string, databaseUrl: string | null): () => Promise<number> {
  if (databaseUrl === null) {
    return async () =>
      fs
        .readdirSync(dataDir)
        .filter((f) => f.includes('.sqlite'))
        .reduce((n, f) => n + fs.statSync(path.join(dataDir, f)).size, 0);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  const connected = client.connect();
  onCleanup(() => client.end().catch(() => undefined));
  return async () => {
    await connected;
    return Number((await client.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
  };
}

/** The size at the start, after the first minute, and at the end, with the growth of the last minute. */
function sizeGrowth(sizes: Array<{ at: number; bytes: number }>): string {
  if (sizes.length < 2) return 'not sampled';
  const end = sizes.at(-1)!;
  const at = (ms: number) => sizes.find((s) => s.at >= ms) ?? end;
  const minuteIn = at(sizes[0].at + 60_000);
  const minuteBefore = at(end.at - 60_000);
  return `${mb(sizes[0].bytes)} MB at the start, ${mb(minuteIn.bytes)} MB after a minute, ${mb(end.bytes)} MB at the end (${mb(end.bytes - minuteBefore.bytes)} MB in the last minute)`;
}

/** The growth of each whole minute of the run, in MB: a database with bounded tables levels off. */
function minuteGrowth(sizes: Array<{ at: number; bytes: number }>): string {
  const minutes: string[] = [];
  for (let from = sizes[0]; ; ) {
    const to = sizes.find((s) => s.at >= from.at + 60_000);
    if (!to) break;
    minutes.push(`${to.bytes >= from.bytes ? '+' : ''}${mb(to.bytes - from.bytes)}`);
    from = to;
  }
  return minutes.length ? `${minutes.join(', ')} MB` : 'under a minute sampled';
}

const options = (() => {
  try {
    return parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`soak: ${(error as Error).message}\n`);
    process.exit(2);
  }
})();
main(options).then(
  async (code) => {
    await runCleanups();
    process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(`soak: ${(error as Error).stack ?? String(error)}\n`);
    killAllChildren();
    await runCleanups();
    process.exit(1);
  },
);
