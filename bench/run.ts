// npm run bench [-- flags]: Colloquy against the performance targets of architecture.md.
//
//   --quick           skip the one-million-conversations step (the slowest: a bulk insert + restart)
//   --postgres        Colloquy on PostgreSQL instead of SQLite (same as --mode postgres): a database
//                     colloquy_bench_<random> is created for the run on the local PostgreSQL and
//                     dropped at the end, even when the run fails or is interrupted; the SQLite
//                     baseline is measured as always, plus a PostgreSQL baseline (the same route,
//                     one read-modify-write transaction through pg per request)
//   --nodes N         with --postgres: also run N Colloquy nodes (processes) on the same database,
//                     the connections split evenly between them, and compare with one node
//                     (default 1: one node only)
//   --mode M          sqlite (the default), postgres (= --postgres), or all: one node on SQLite, then
//                     one node and --nodes nodes (at least 2) on PostgreSQL, in sequence, one table
//   --pg-url URL      the PostgreSQL server to create the run's database on (default
//                     postgres://postgres@127.0.0.1:5432/postgres; only 127.0.0.1 is accepted)
//   --profile         also run the baseline and the one-node chat load once more with
//                     `node --cpu-prof` on the server and print where its CPU time goes (profiles kept
//                     in $TMPDIR/colloquy-bench-profile-*; bench/profile.ts summarises one on its own)
//   --seconds N       measured seconds per load run (default 10; each run has a 3 s warm-up first)
//   --connections N   connections for the baseline / chat comparison (default 50; with several
//                     nodes, this total is split between them)
//   --no-doc          do not append the results to docs/performance.md
//   --keep            keep the temporary data directories (printed at the start)
//   --knowledge       only the retrieval benchmark (bench/knowledge.ts: indexing, search p50/p99 words
//                     only and hybrid, the answer step, recall@5), with --kb-mb N (default 50) and
//                     --kb-db sqlite|postgres|both (default both)
//
// Before the load runs: what understanding costs (bench/understanding.ts) and the built-in model
// (bench/builtin-model.ts, about a minute: CPU per text, RSS, turns with and without intents).
// Steps: (1) the baseline server(s) (bench/baseline-server.ts) and (2) the real server
// (`node dist/cli.js serve`, compiled as `npm start` does) as child processes, one at a time (several at a time for
// the N-node run), loaded by autocannon from this process; (3) READY on a 10,000-message history
// written with the store API while the server is stopped; (4) turn latency with 1,000 and then
// 1,000,000 stored conversations. Steps 2-4 once per database. Only 127.0.0.1, every run bounded,
// every child killed at the end (or after a deadline of 30 minutes per database).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { installCleanup, interruptedBy, killAllChildren, onCleanup, runCleanups, startChild, type Child } from './children.js';
import { measure, measureSpread, percentile, type LoadOptions, type LoadResult } from './load.js';
import { summariseProfile } from './profile.js';
import { machine, table, writeDoc, type DatabaseFigures, type Figures, type MillionFigures, type ReadyFigures } from './report.js';
import { seedConversations, seedHistory, bulkUserId, type Db } from './seed.js';
import { ADMIN_TOKEN, call, checkTurn, createTenant, startConversations, userId, type Tenant } from './setup.js';
import { describeUnderstanding, measureUnderstanding } from './understanding.js';
import { describeBuiltinModel, measureBuiltinModel } from './builtin-model.js';
import { describeAgentTurn, measureAgentTurn } from './agent-turn.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONVERSATIONS = 1000;
const READY_USER = 'bench-ready-user';
const TEMPLATE_USER = 'bench-template-user';
const HISTORY_MESSAGES = 10_000;
const READY_CALLS = 20;
const MILLION = 1_000_000;
const MODERATE_CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const PG_BASELINE_POOL = 10;
const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const stringFlag = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
};
const numberFlag = (name: string, fallback: number) => {
  const raw = stringFlag(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number`);
  return value;
};

function parseOptions() {
  const known = new Set(['--quick', '--postgres', '--nodes', '--mode', '--pg-url', '--profile', '--seconds', '--connections', '--no-doc', '--keep']);
  const withValue = new Set(['--nodes', '--mode', '--pg-url', '--seconds', '--connections']);
  for (let i = 0; i < argv.length; i++) {
    if (!known.has(argv[i])) throw new Error(`unknown flag ${argv[i]} (the flags are described at the top of bench/run.ts)`);
    if (withValue.has(argv[i])) i++;
  }
  const mode = stringFlag('--mode') ?? (flag('--postgres') ? 'postgres' : 'sqlite');
  if (mode !== 'sqlite' && mode !== 'postgres' && mode !== 'all') throw new Error(`--mode must be sqlite, postgres or all, got "${mode}"`);
  if (mode === 'sqlite' && flag('--postgres')) throw new Error('--postgres contradicts --mode sqlite');
  const nodesFlag = numberFlag('--nodes', 1);
  if (!Number.isInteger(nodesFlag) || nodesFlag > 8) throw new Error('--nodes must be a whole number from 1 to 8');
  if (nodesFlag > 1 && mode === 'sqlite') throw new Error("--nodes needs --postgres (or --mode all): SQLite is one process's file");
  const pgUrl = stringFlag('--pg-url') ?? DEFAULT_PG_URL;
  let parsed: URL;
  try {
    parsed = new URL(pgUrl);
  } catch {
    throw new Error(`--pg-url is not a URL: ${pgUrl}`);
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname !== '127.0.0.1') {
    throw new Error(`--pg-url must be a postgres:// URL on 127.0.0.1, got ${pgUrl}`);
  }
  const connections = numberFlag('--connections', 50);
  const nodes = mode === 'all' ? Math.max(2, nodesFlag) : nodesFlag;
  if (nodes > connections) throw new Error(`--connections ${connections} cannot be split over ${nodes} nodes`);
  return {
    quick: flag('--quick'),
    profile: flag('--profile'),
    doc: !flag('--no-doc'),
    keep: flag('--keep'),
    seconds: numberFlag('--seconds', 10),
    connections,
    sqlite: mode === 'sqlite' || mode === 'all',
    postgres: mode === 'postgres' || mode === 'all',
    nodes,
    pgUrl,
  };
}
if (argv.includes('--knowledge')) {
  const { knowledgeBench } = await import('./knowledge.js');
  await knowledgeBench();
  process.exit(0);
}
const options = (() => {
  try {
    return parseOptions();
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    process.exit(2);
  }
})();

const say = (line = '') => process.stdout.write(`${line}\n`);
let stepNumber = 0;
const step = (title: string) => say(`\n${++stepNumber}. ${title}`);

let compiled = false;

/** The node flags of `npm start` (package.json), so that the bench runs what production runs. */
const START_FLAGS: string[] = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.match(/--[\w-]+(?:=\S+)?/g) ?? [];

/** `npm start` compiles src/ to dist/ first (bin/build.js); so does the bench, once. */
function compileOnce(): void {
  if (compiled) return;
  execFileSync(process.execPath, ['bin/build.js'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  compiled = true;
}

function startColloquy(db: Db, nodeFlags: string[] = [], name = 'colloquy'): Promise<Child> {
  compileOnce();
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: db.dataDir,
    COLLOQUY_DEMO: '0',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    COLLOQUY_TOKEN_MINUTES: '600',
    LOG_LEVEL: 'warn',
  };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  // what `npm start` runs: the compiled program (built once per bench run, see compileOnce), with
  // the V8 flags of package.json's start script
  return startChild({ name, cwd: ROOT, args: [...nodeFlags, ...START_FLAGS, 'dist/cli.js', 'serve'], env });
}

/** Chat load: each request a Text for the next conversation, round-robin (or as `pick` says). */
function chatLoad(url: string, tenant: Tenant, connections: number, pick?: () => string): LoadOptions {
  let next = 0;
  const user = pick ?? (() => userId(next++ % CONVERSATIONS));
  return {
    url,
    path: '/custom/chat',
    connections,
    seconds: options.seconds,
    warmupSeconds: WARMUP_SECONDS,
    headers: { authorization: `Bearer ${tenant.botToken}` },
    body: () => JSON.stringify({ UserId: user(), Text: 'Where is my order?' }),
  };
}

async function timeReady(url: string, tenant: Tenant): Promise<ReadyFigures> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${url}/custom/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ UserId: READY_USER, Command: 'READY' }),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`READY: ${response.status} ${text.slice(0, 300)}`);
    return { ms, text };
  };
  const first = await once();
  const times: number[] = [];
  for (let i = 0; i < READY_CALLS; i++) times.push((await once()).ms);
  times.sort((a, b) => a - b);
  const parts = (JSON.parse(first.text) as { Parts: unknown[] }).Parts.length;
  return { messages: HISTORY_MESSAGES, parts, bytes: Buffer.byteLength(first.text), calls: READY_CALLS, firstMs: first.ms, p50: percentile(times, 50), max: times.at(-1)! };
}

/** The same load once more on a server started with `node --cpu-prof`; prints where its CPU time went. */
async function profiled(label: string, start: (nodeFlags: string[]) => Promise<Child>, load: (url: string) => LoadOptions): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-bench-profile-'));
  say(`\nProfiling: ${label} (node --cpu-prof, profile kept in ${dir})`);
  const server = await start(['--cpu-prof', '--cpu-prof-dir', dir]);
  try {
    await measure(`${label} (profiled)`, load(server.url));
  } finally {
    await server.stop();
  }
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the server; tsx's loader thread writes one too.
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const file = files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) ?? files[0];
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  // Only the measured run: start-up (module loading) and the warm-up are left out.
  say(summariseProfile(path.join(dir, file), 25, server.startupMs + WARMUP_SECONDS * 1000).lines.join('\n'));
}

/** The baseline route on SQLite (`{ sqlite: file }`) or on PostgreSQL (`{ postgres: url }`). */
function startBaseline(on: { sqlite: string } | { postgres: string }, nodeFlags: string[] = []): Promise<Child> {
  return startChild({
    name: 'sqlite' in on ? 'baseline' : 'baseline-pg',
    cwd: ROOT,
    // the same V8 flags as the server: like for like
    args: [...nodeFlags, ...START_FLAGS, '--import', 'tsx', 'bench/baseline-server.ts'],
    env: 'sqlite' in on ? { PORT: '0', BENCH_DB: on.sqlite } : { PORT: '0', BENCH_PG_URL: on.postgres, BENCH_PG_POOL: String(PG_BASELINE_POOL) },
  });
}

/** The baseline gets the same request as a chat turn (JSON body, bearer header). */
function baselineLoad(url: string): LoadOptions {
  let n = 0;
  return {
    url,
    path: '/counter',
    connections: options.connections,
    seconds: options.seconds,
    warmupSeconds: WARMUP_SECONDS,
    headers: { authorization: 'Bearer baseline' },
    body: () => JSON.stringify({ UserId: userId(n++ % CONVERSATIONS), Text: 'Where is my order?' }),
  };
}

async function measureBaseline(label: string, on: { sqlite: string } | { postgres: string }) {
  const server = await startBaseline(on);
  try {
    return await measure(label, { ...baselineLoad(server.url), pid: server.pid, postgres: 'postgres' in on });
  } finally {
    await server.stop();
  }
}

/** The bench account, bot and 1,000 conversations, made through the API of a fresh server; one turn checked. */
async function prepareTenant(url: string): Promise<Tenant> {
  const tenant = await createTenant(url);
  await startConversations(url, tenant.botToken, CONVERSATIONS);
  await checkTurn(url, tenant.botToken, userId(0));
  await call(url, 'POST', '/custom/chat', { UserId: READY_USER, Text: 'hello' }, tenant.botToken);
  await call(url, 'POST', '/custom/chat', { UserId: TEMPLATE_USER }, tenant.botToken);
  say(`  account, bot ${tenant.botKey} and ${CONVERSATIONS} conversations created through the API`);
  return tenant;
}

/** Steps 3 and 4 on one database, the servers stopped: READY on a long history, then (unless --quick) one million conversations. */
async function readyAndMillion(db: Db, tenant: Tenant, name: string): Promise<Pick<DatabaseFigures, 'ready' | 'million'>> {
  step(`READY on a 10,000-message history (${name})`);
  const seeded = await seedHistory(db, tenant.botKey, READY_USER, HISTORY_MESSAGES);
  say(`  history written with the store API: ${seeded.messages} messages in ${seeded.ms.toFixed(0)} ms`);
  let server = await startColloquy(db);
  try {
    const ready = await timeReady(server.url, tenant);
    say(`  ${ready.parts} parts, ${(ready.bytes / 1e6).toFixed(1)} MB: first ${ready.firstMs.toFixed(1)} ms, then p50 ${ready.p50.toFixed(1)} ms, max ${ready.max.toFixed(1)} ms`);
    if (options.quick) return { ready };

    step(`Turn latency with 1,000 and with ${MILLION.toLocaleString('en-US')} stored conversations, ${MODERATE_CONNECTIONS} connections (${name})`);
    const reference = await measure('1,000 stored', chatLoad(server.url, tenant, MODERATE_CONNECTIONS));
    await server.stop();
    const bulk = await seedConversations(db, tenant.botKey, TEMPLATE_USER, MILLION);
    say(`  bulk insert: ${bulk.total.toLocaleString('en-US')} conversations of the bot now, in ${(bulk.ms / 1000).toFixed(1)} s`);
    server = await startColloquy(db);
    const hot = await measure('same 1,000, 1M stored', chatLoad(server.url, tenant, MODERATE_CONNECTIONS));
    const spread = await measure(
      'spread over 1M',
      chatLoad(server.url, tenant, MODERATE_CONNECTIONS, () => bulkUserId(Math.floor(Math.random() * MILLION))),
    );
    const million: MillionFigures = { rows: bulk.total, connections: MODERATE_CONNECTIONS, reference, hot, spread };
    return { ready, million };
  } finally {
    await server.stop();
  }
}

async function sqliteRun(tmp: string, baselineDb: string): Promise<DatabaseFigures> {
  const db: Db = { dataDir: path.join(tmp, 'colloquy') };
  step('Chat turns on the real server, SQLite, one node');
  const server = await startColloquy(db);
  let tenant: Tenant;
  let chat: LoadResult;
  try {
    tenant = await prepareTenant(server.url);
    chat = await measure('chat turns', { ...chatLoad(server.url, tenant, options.connections), pid: server.pid });
  } finally {
    await server.stop();
  }
  if (options.profile) {
    await profiled('baseline', (flags) => startBaseline({ sqlite: baselineDb }, flags), baselineLoad);
    await profiled(
      'chat turns',
      (flags) => startColloquy(db, flags),
      (url) => chatLoad(url, tenant, options.connections),
    );
  }
  return { chat, ...(await readyAndMillion(db, tenant, 'SQLite')) };
}

/** connections split as evenly as possible over n nodes */
const split = (total: number, n: number) => Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));

async function postgresRun(tmp: string, databaseUrl: string): Promise<{ baseline: Figures['pgBaseline']; figures: DatabaseFigures }> {
  const db: Db = { dataDir: path.join(tmp, 'colloquy-pg'), databaseUrl };
  step(`Baseline: bare Fastify route, one PostgreSQL read-modify-write transaction per request (pg, pool of ${PG_BASELINE_POOL})`);
  const baseline = await measureBaseline('baseline, PostgreSQL', { postgres: databaseUrl });

  step('Chat turns on the real server, PostgreSQL, one node');
  const nodes: Child[] = [];
  let tenant: Tenant;
  let chat: LoadResult;
  let scaled: DatabaseFigures['scaled'];
  try {
    nodes.push(await startColloquy(db, [], 'colloquy-pg-1'));
    tenant = await prepareTenant(nodes[0].url);
    chat = await measure('chat turns, one node', { ...chatLoad(nodes[0].url, tenant, options.connections), pid: nodes[0].pid, postgres: true });
    if (options.nodes > 1) {
      step(`Chat turns, PostgreSQL, ${options.nodes} nodes on the same database`);
      for (let i = 2; i <= options.nodes; i++) nodes.push(await startColloquy(db, [], `colloquy-pg-${i}`));
      // A conversation turned on one node goes on on another, and the token works on all of them.
      for (const node of nodes) await checkTurn(node.url, tenant.botToken, userId(1));
      const connections = split(options.connections, nodes.length);
      say(`  ${nodes.length} nodes (${nodes.map((n) => n.url).join(', ')}), ${connections.join(' + ')} connections`);
      // One round-robin over the conversations shared by all nodes: any conversation reaches any node.
      let next = 0;
      const pick = () => userId(next++ % CONVERSATIONS);
      const result = await measureSpread(
        `chat turns, ${nodes.length} nodes`,
        nodes.map((n, i) => chatLoad(n.url, tenant, connections[i], pick)),
      );
      scaled = { nodes: nodes.length, connections, result, perNode: result.perTarget };
    }
  } finally {
    for (const node of nodes) await node.stop();
  }
  if (options.profile) {
    await profiled('baseline, PostgreSQL', (flags) => startBaseline({ postgres: databaseUrl }, flags), baselineLoad);
    await profiled(
      'chat turns, PostgreSQL, one node',
      (flags) => startColloquy(db, flags),
      (url) => chatLoad(url, tenant, options.connections),
    );
  }
  return { baseline, figures: { chat, scaled, ...(await readyAndMillion(db, tenant, 'PostgreSQL')) } };
}

/**
 * Creates colloquy_bench_<random> on the local PostgreSQL, runs `work` with its URL, and drops it
 * afterwards whatever happens (also on SIGINT/SIGTERM and at the deadline, through onCleanup).
 */
async function withPostgresDatabase<T>(work: (url: string, server: string) => Promise<T>): Promise<T> {
  const name = `colloquy_bench_${crypto.randomBytes(6).toString('hex')}`;
  const adminClient = () => new pg.Client({ connectionString: options.pgUrl, connectionTimeoutMillis: 10_000, query_timeout: 60_000 });
  const admin = adminClient();
  let server: string;
  try {
    await admin.connect();
    const show = async (setting: string) => (await admin.query<Record<string, string>>(`SHOW ${setting}`)).rows[0][setting];
    server =
      `PostgreSQL ${await show('server_version')} on 127.0.0.1:${new URL(options.pgUrl).port || 5432}, a database created for the run and dropped after ` +
      `(fsync=${await show('fsync')}, synchronous_commit=${await show('synchronous_commit')}, shared_buffers=${await show('shared_buffers')}, ` +
      `max_connections=${await show('max_connections')}); each Colloquy node has the store's own pool of 10 connections`;
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw new Error(`cannot create the benchmark's database on ${options.pgUrl}: ${(error as Error).message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const dropDatabase = async () => {
    const client = adminClient();
    await client.connect();
    try {
      // FORCE: a child killed mid-run may leave sessions behind for a moment.
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      say(`  database ${name} dropped`);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  let dropping: Promise<void> | null = null;
  // Once only, however many paths (normal end, failure, signal, deadline) ask for it.
  const drop = () => (dropping ??= dropDatabase());
  const unregister = onCleanup(drop);
  const url = new URL(options.pgUrl);
  url.pathname = `/${name}`;
  say(`  database ${name} created on 127.0.0.1`);
  try {
    return await work(url.toString(), server);
  } finally {
    killAllChildren();
    await drop();
    unregister();
  }
}

/** Fails at once, before any measurement, when the PostgreSQL server cannot be reached. */
async function checkPostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: options.pgUrl, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`PostgreSQL at ${options.pgUrl} cannot be reached (--postgres / --mode all need it): ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  installCleanup(30 * 60_000 * ((options.sqlite ? 1 : 0) + (options.postgres ? 1 : 0)));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-bench-'));
  // Registered first, so run last (after the database is dropped), on every way out.
  if (!options.keep) onCleanup(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  const runs = [options.sqlite && 'SQLite, one node', options.postgres && 'PostgreSQL, one node', options.postgres && options.nodes > 1 && `PostgreSQL, ${options.nodes} nodes`].filter(Boolean);
  say(`Colloquy benchmark — ${machine()}`);
  say(`Colloquy runs: ${runs.join('; ')}${options.quick ? ' (--quick: no one-million-conversations step)' : ''}`);
  say(`data in ${tmp}; ${options.connections} connections, ${options.seconds} s per run after a ${WARMUP_SECONDS} s warm-up`);
  const loadAtStart = os.loadavg()[0];
  try {
    if (options.postgres) await checkPostgres();
    step('Understanding free text (issue 14): training at publish, and what classifying adds to a turn');
    say(describeUnderstanding(await measureUnderstanding()));
    step('The built-in model (issue 36): CPU per text, server memory with it loaded, turns with and without intents');
    say(describeBuiltinModel(await measureBuiltinModel()));
    step('An agent turn (issue 39): two model calls and two http tool calls, against loopback doubles');
    say(describeAgentTurn(await measureAgentTurn()));
    step('Baseline: bare Fastify route, one SQLite read-modify-write transaction per request');
    const baselineDb = path.join(tmp, 'baseline.sqlite');
    const baseline = await measureBaseline('baseline', { sqlite: baselineDb });
    const figures: Figures = { connections: options.connections, seconds: options.seconds, baseline };

    if (options.sqlite) figures.sqlite = await sqliteRun(tmp, baselineDb);
    if (options.postgres) {
      step('PostgreSQL: a fresh database for the run');
      await withPostgresDatabase(async (url, server) => {
        const pgRun = await postgresRun(tmp, url);
        figures.pgBaseline = pgRun.baseline;
        figures.pgPool = PG_BASELINE_POOL;
        figures.postgres = pgRun.figures;
        figures.postgresServer = server;
      });
    }

    say(`\nMachine: ${machine()}`);
    say(table(figures));
    if (options.doc) {
      const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
      const notes = [
        `Load: autocannon in the benchmark process; ${options.seconds} s per measured run after ${WARMUP_SECONDS} s of warm-up; servers started with LOG_LEVEL=warn and no rate limit`,
        `1-minute load average: ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end ` +
          `(${os.cpus().length} cores: more than that means other processes competed for the CPU during the run)`,
      ];
      if (figures.postgres?.scaled) {
        notes.push(
          `${figures.postgres.scaled.nodes} nodes: ${figures.postgres.scaled.nodes} Colloquy processes, PostgreSQL and the load generator all share the same ` +
            `${os.cpus().length} cores: here more nodes add processes, not CPU, so the comparison shows what running several nodes costs rather than capacity gained`,
        );
      }
      writeDoc(path.join(ROOT, 'docs', 'performance.md'), command, figures, notes);
      say('\nappended to docs/performance.md');
    }
  } finally {
    killAllChildren();
    await runCleanups();
  }
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    // After SIGINT/SIGTERM the failure is only the servers going away: the signal handler exits.
    const signal = interruptedBy();
    if (!signal) process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
    killAllChildren();
    await runCleanups();
    process.exit(signal ? 130 : 1);
  },
);
