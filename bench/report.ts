// The result table (printed, and appended to docs/performance.md with the machine, the command
// and the date), and the PASS/MISS verdicts against architecture.md's performance targets.
import fs from 'node:fs';
import os from 'node:os';
import type { LoadResult } from './load.js';

/**
 * Issue 16's targets, the step on the way to architecture.md's (turns / baseline 0.7, p99 2×,
 * READY under 50 ms), which the Target column shows as the goal.
 */
export const TARGETS = { throughputRatio: 0.35, throughputGoal: 0.7, p99Ratio: 3, p99Goal: 2, pgThroughputRatio: 0.6, readyP50Ms: 30, readyMaxMs: 50, millionRatio: 1.1 };

export interface ReadyFigures {
  messages: number;
  parts: number;
  bytes: number;
  calls: number;
  firstMs: number;
  p50: number;
  max: number;
}

export interface MillionFigures {
  rows: number;
  connections: number;
  reference: LoadResult;
  /** turns on the same 1,000 conversations as the reference, with one million more stored */
  hot: LoadResult;
  /** turns spread at random over the one million bulk conversations */
  spread: LoadResult;
}

/** Several Colloquy nodes on one database, the load split between them. */
export interface NodesFigures {
  nodes: number;
  /** connections per node */
  connections: number[];
  /** all nodes together: throughputs added, latency percentiles over the merged samples */
  result: LoadResult;
  perNode: LoadResult[];
}

/** The chat figures of Colloquy on one database. */
export interface DatabaseFigures {
  /** one node */
  chat: LoadResult;
  /** the same load spread over several nodes (PostgreSQL only) */
  scaled?: NodesFigures;
  ready?: ReadyFigures;
  million?: MillionFigures;
}

export interface Figures {
  connections: number;
  seconds: number;
  /** the spec's baseline: bare Fastify + one SQLite read-modify-write transaction per request */
  baseline: LoadResult;
  /** the same route with one PostgreSQL read-modify-write transaction (pg) per request */
  pgBaseline?: LoadResult;
  /** pool size of the PostgreSQL baseline */
  pgPool?: number;
  sqlite?: DatabaseFigures;
  postgres?: DatabaseFigures;
  /** how the PostgreSQL server was set up (version, durability settings), for the doc */
  postgresServer?: string;
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ` + `${os.type()} ${os.release()}, Node ${process.version}`;
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const load = (r: LoadResult, unit: string) =>
  `${f0(r.perSecond)} ${unit}/s · p50 ${ms(r.p50)} · p99 ${ms(r.p99)}` +
  (r.cpuUsPerRequest === undefined ? '' : ` · CPU ${f0(r.cpuUsPerRequest)} µs each`) +
  (r.postgresUsPerRequest === undefined ? '' : ` + PostgreSQL ${f0(r.postgresUsPerRequest)} µs`);

function databaseRows(db: DatabaseFigures, name: string, x: Figures): string[][] {
  const rows: string[][] = [];
  /** `target`: the throughput ratio to reach; null: shown for comparison only (PostgreSQL against SQLite's baseline) */
  const ratios = (baseline: LoadResult, which: string, target: number | null) => {
    const ratio = db.chat.perSecond / baseline.perSecond;
    const p99Ratio = db.chat.p99 / baseline.p99;
    const goal = target === TARGETS.throughputRatio ? ` (goal ${TARGETS.throughputGoal})` : '';
    rows.push(
      [`Throughput ratio turns / ${which}`, ratio.toFixed(2), target === null ? '' : `≥ ${target}${goal}`, target === null ? '—' : verdict(ratio >= target)],
      [
        `p99 ratio turns / ${which}`,
        `${p99Ratio.toFixed(2)}×`,
        target === null ? '' : `≤ ${TARGETS.p99Ratio}× (goal ${TARGETS.p99Goal}×)`,
        target === null ? '—' : verdict(p99Ratio <= TARGETS.p99Ratio),
      ],
    );
  };
  rows.push([`Chat turns (POST /custom/chat, Text), ${name}, one node, ${x.connections} conn.`, load(db.chat, 'turns'), '', '']);
  if (name === 'SQLite') ratios(x.baseline, x.pgBaseline ? 'SQLite baseline' : 'baseline', TARGETS.throughputRatio);
  else if (!x.pgBaseline) ratios(x.baseline, "SQLite baseline (the spec's)", null);
  else {
    ratios(x.baseline, "SQLite baseline (the spec's)", null);
    ratios(x.pgBaseline, 'PostgreSQL baseline (like for like)', TARGETS.pgThroughputRatio);
  }
  if (db.scaled) {
    const s = db.scaled;
    const ratio = s.result.perSecond / db.chat.perSecond;
    rows.push(
      [`Chat turns, ${name}, ${s.nodes} nodes on one database, ${s.connections.join(' + ')} conn.`, load(s.result, 'turns'), '', ''],
      ...s.perNode.map((r, i) => [`  … of which node ${i + 1}, ${s.connections[i]} conn.`, load(r, 'turns'), '', '']),
      [
        `${s.nodes} nodes / one node (throughput; p50, p99 one → ${s.nodes})`,
        `${ratio.toFixed(2)}× · p50 ${ms(db.chat.p50)} → ${ms(s.result.p50)} · p99 ${ms(db.chat.p99)} → ${ms(s.result.p99)}`,
        '≥ 1.00×',
        verdict(ratio >= 1),
      ],
    );
  }
  if (db.ready) {
    const r = db.ready;
    rows.push([
      `READY, ${f0(r.messages)} stored messages (${f0(r.parts)} parts, ${(r.bytes / 1e6).toFixed(1)} MB)`,
      `${r.calls} calls: p50 ${ms(r.p50)} · max ${ms(r.max)} (first call after start ${ms(r.firstMs)})`,
      `p50 < ${TARGETS.readyP50Ms} ms (max < ${TARGETS.readyMaxMs} ms)`,
      verdict(r.p50 < TARGETS.readyP50Ms && r.max < TARGETS.readyMaxMs),
    ]);
  }
  if (db.million) {
    const m = db.million;
    const ratio50 = m.spread.p50 / m.reference.p50;
    const hot50 = m.hot.p50 / m.reference.p50;
    rows.push(
      [`Turns, 1,000 conversations stored, ${m.connections} conn.`, load(m.reference, 'turns'), '', ''],
      [`Turns on those 1,000, ${f0(m.rows)} stored, ${m.connections} conn.`, load(m.hot, 'turns'), '', ''],
      [`Turns spread over ${f0(m.rows)} stored, ${m.connections} conn.`, load(m.spread, 'turns'), '', ''],
      [
        `Latency ratio ${f0(m.rows)} / 1,000 (p50; p99)`,
        `spread ${ratio50.toFixed(2)}; ${(m.spread.p99 / m.reference.p99).toFixed(2)} — same 1,000 ${hot50.toFixed(2)}; ${(m.hot.p99 / m.reference.p99).toFixed(2)}`,
        `p50 ≤ ${TARGETS.millionRatio}`,
        verdict(Math.max(ratio50, hot50) <= TARGETS.millionRatio),
      ],
    );
  } else {
    rows.push(['Turn latency with 1,000,000 conversations', 'skipped (--quick)', `p50 ≤ ${TARGETS.millionRatio}×`, '—']);
  }
  return rows;
}

export function table(x: Figures): string {
  // Section rows only when there is more than the plain SQLite run (whose table stays as it was).
  const sections = Boolean(x.postgres);
  const section = (title: string) => (sections ? [[`**${title}**`, '', '', '']] : []);
  const rows: string[][] = [
    ['Measure', 'Figures', 'Target', 'Result'],
    ...section('Baselines (one process each)'),
    [`Baseline: bare Fastify + SQLite read-modify-write, ${x.connections} conn.`, load(x.baseline, 'req'), '', ''],
  ];
  if (x.pgBaseline) {
    rows.push([`Baseline: bare Fastify + PostgreSQL read-modify-write (pg, pool of ${x.pgPool ?? 10}), ${x.connections} conn.`, load(x.pgBaseline, 'req'), '', '']);
  }
  if (x.sqlite) rows.push(...section('Colloquy on SQLite, one node'), ...databaseRows(x.sqlite, 'SQLite', x));
  if (x.postgres) {
    rows.push(...section(`Colloquy on PostgreSQL${x.postgres.scaled ? `, one node and ${x.postgres.scaled.nodes} nodes` : ', one node'}`));
    rows.push(...databaseRows(x.postgres, 'PostgreSQL', x));
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

const HEADER = `# Performance

\`npm run bench\` (bench/run.ts) measures Colloquy against the targets of architecture.md, each
server under test in a child process of its own and autocannon in the benchmark's process. Each
run appends a section below. Latencies are measured by the client, per request; throughput is
2xx responses per second over the measured run (after a 3 s warm-up). \`--postgres\` runs Colloquy on
PostgreSQL (\`--nodes 2\`: also two nodes on one database); \`--mode all\` runs one node on SQLite,
one node on PostgreSQL and two nodes on PostgreSQL in sequence, in one table. What each row
measures:

- **Baseline**: a bare Fastify route (bench/baseline-server.ts) doing one better-sqlite3
  read-modify-write transaction (WAL, synchronous=NORMAL) on one of 1,000 counter rows. This is
  the baseline of architecture.md's targets, whatever database Colloquy runs on.
- **PostgreSQL baseline** (\`--postgres\`, \`--mode all\`): the same route doing one read-modify-write
  transaction through pg (BEGIN, SELECT ... FOR UPDATE, UPDATE, COMMIT; a pool of 10 like the
  store's) in the run's own PostgreSQL database, so that PostgreSQL chat figures can be compared
  with a like-for-like baseline as well as with the spec's SQLite one.
- **Chat turns**: POST /custom/chat with a Text, round-robin over 1,000 started conversations:
  the fallback runs, writes one variable, answers two parts; state, history and usage committed.
  With PostgreSQL, the server gets DATABASE_URL pointing at a database created for the run on
  the local PostgreSQL (dropped at the end).
- **Throughput ratio / p99 ratio**: chat turns per second over baseline requests per second, and
  chat p99 over baseline p99, both at the same connection count.
- **N nodes** (\`--postgres --nodes 2\`): N Colloquy processes on the same PostgreSQL database, the
  same total number of connections split evenly between them (one autocannon run per node, all
  at once, the conversations still round-robin over all nodes as a load balancer would spread
  them); throughputs added, percentiles over the merged latency samples. Target: N nodes at least
  as fast as one.
- **READY**: POST /custom/chat with Command READY on one conversation whose history has 10,000
  stored messages (written with the store API before the server starts); whole history returned.
- **Turns with 1,000 / 1,000,000 conversations** (not with \`--quick\`): the same turn at a
  moderate fixed load, after a restart, before and after one million conversation rows are
  bulk-inserted into the same database.
- **Latency ratio**: p50 (and p99) with one million stored over with 1,000 stored; "spread" sends
  each turn to a random one of the million, "same 1,000" keeps the reference's conversations.
`;

export function writeDoc(file: string, command: string, figures: Figures, notes: string[]): void {
  const databases = [`SQLite (one file per server, WAL, synchronous=NORMAL)${figures.sqlite ? '' : ', for the baseline only'}`];
  if (figures.postgres) databases.push(figures.postgresServer ?? 'PostgreSQL');
  const section = [
    '',
    `## Run of ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    `- Command: \`${command}\``,
    `- Machine: ${machine()}`,
    `- Database: ${databases.join('; ')}`,
    ...notes.map((n) => `- ${n}`),
    '',
    table(figures),
    '',
  ].join('\n');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.writeFileSync(file, `${existing.includes('# Performance') ? `${existing.trimEnd()}\n` : HEADER}${section}`);
}
