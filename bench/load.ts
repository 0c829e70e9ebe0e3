// Load generation with autocannon's programmatic API, in the benchmark's own process (the servers
// are children). Latencies are taken from every 2xx response (microsecond precision, not the
// whole-millisecond histogram autocannon keeps); throughput is 2xx responses per second of run.
import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers: Record<string, string>;
  /** the JSON body of the next request (called once per request) */
  body: () => string;
  /** the server's process id: its CPU time over the run is measured too (Linux /proc) */
  pid?: number;
  /** the server under load uses PostgreSQL: PostgreSQL's CPU time is measured too */
  postgres?: boolean;
}

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
  ok: number;
  failed: number;
  errors: number;
  seconds: number;
  /**
   * CPU time (user + system, all threads) the server process spent per 2xx response over the
   * run, in µs: unlike throughput, barely moved by other processes competing for the cores.
   */
  cpuUsPerRequest?: number;
  /**
   * CPU time of the machine's PostgreSQL processes (server and backends, every database) per 2xx
   * response over the run, in µs: on a machine where nothing else uses PostgreSQL, what the
   * requests cost the database. Measured when the run says it uses PostgreSQL.
   */
  postgresUsPerRequest?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

interface Samples {
  /** latencies of the 2xx responses, ms, sorted */
  latencies: number[];
  failed: number;
  errors: number;
  seconds: number;
  /** CPU ms of the server process during the run */
  cpuMs?: number;
  /** CPU ms of all PostgreSQL processes during the run */
  postgresMs?: number;
}

/** CPU ms (user + system) a process has used so far, from /proc/<pid>/stat; undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after the command name (which may hold spaces, inside parentheses): utime and stime are fields 14 and 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU ms of every process named `postgres` (the server, its backends and workers) so far. */
function postgresCpuMs(): number | undefined {
  let total = 0;
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        total += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return undefined;
  }
  return total;
}

/** USER_HZ: 100 on every Linux Node supports */
const TICKS_PER_SECOND = 100;

function summarise(s: Samples): LoadResult {
  const sum = s.latencies.reduce((total, v) => total + v, 0);
  return {
    perSecond: s.latencies.length / s.seconds,
    p50: percentile(s.latencies, 50),
    p99: percentile(s.latencies, 99),
    mean: s.latencies.length ? sum / s.latencies.length : NaN,
    max: s.latencies.at(-1) ?? NaN,
    ok: s.latencies.length,
    failed: s.failed,
    errors: s.errors,
    seconds: s.seconds,
    ...(s.cpuMs === undefined || s.latencies.length === 0 ? {} : { cpuUsPerRequest: (s.cpuMs * 1000) / s.latencies.length }),
    ...(s.postgresMs === undefined || s.latencies.length === 0 ? {} : { postgresUsPerRequest: (s.postgresMs * 1000) / s.latencies.length }),
  };
}

async function run(options: LoadOptions, seconds: number): Promise<Samples> {
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = cpuMsOf(options.pid);
  const postgresBefore = options.postgres ? postgresCpuMs() : undefined;
  const started = performance.now();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: options.path,
        headers: { 'content-type': 'application/json', ...options.headers },
        setupRequest: (request) => ({ ...request, body: options.body() }),
      },
    ],
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else failed++;
  });
  const result = await instance;
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuMsOf(options.pid);
  const postgresAfter = options.postgres ? postgresCpuMs() : undefined;
  latencies.sort((a, b) => a - b);
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const postgresMs = postgresBefore === undefined || postgresAfter === undefined ? undefined : postgresAfter - postgresBefore;
  return { latencies, failed, errors: result.errors, seconds: elapsed, cpuMs, postgresMs };
}

export interface SpreadResult extends LoadResult {
  /** one result per target, in the order given */
  perTarget: LoadResult[];
}

/**
 * One autocannon run per target, all at the same time (several servers behind an imaginary load
 * balancer). Throughput is the sum of the targets' throughputs; the latency percentiles are taken
 * over the merged samples of all targets.
 */
async function runSpread(targets: LoadOptions[], seconds: number): Promise<SpreadResult> {
  const each = await Promise.all(targets.map((t) => run(t, seconds)));
  const merged = summarise({
    latencies: each.flatMap((e) => e.latencies).sort((a, b) => a - b),
    failed: each.reduce((n, e) => n + e.failed, 0),
    errors: each.reduce((n, e) => n + e.errors, 0),
    seconds: Math.max(...each.map((e) => e.seconds)),
  });
  const perTarget = each.map(summarise);
  return { ...merged, perSecond: perTarget.reduce((n, r) => n + r.perSecond, 0), perTarget };
}

const line = (label: string, r: LoadResult) =>
  `  ${label}: ${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms` +
  (r.cpuUsPerRequest === undefined ? '' : `, server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request`) +
  (r.postgresUsPerRequest === undefined ? '' : `, PostgreSQL CPU ${r.postgresUsPerRequest.toFixed(0)} µs/request`) +
  ` (${r.ok} ok, ${r.failed} non-2xx, ${r.errors} errors in ${r.seconds.toFixed(1)} s; load average ${os.loadavg()[0].toFixed(1)})\n`;

function check(label: string, r: LoadResult): void {
  if (r.ok === 0 || r.failed + r.errors > r.ok / 100) {
    throw new Error(`${label}: ${r.failed} non-2xx responses and ${r.errors} connection errors; the figures would be meaningless`);
  }
}

/** A warm-up run (discarded), then the measured run. Fails when more than 1% of requests failed. */
export async function measure(label: string, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(options, options.warmupSeconds);
  const result = summarise(await run(options, options.seconds));
  process.stdout.write(line(label, result));
  check(label, result);
  return result;
}

/** measure() over several targets at once (warm-up and measured run both in parallel on all of them). */
export async function measureSpread(label: string, targets: LoadOptions[]): Promise<SpreadResult> {
  if (targets.length === 0) throw new Error(`${label}: no target`);
  const warmup = Math.max(...targets.map((t) => t.warmupSeconds));
  const seconds = Math.max(...targets.map((t) => t.seconds));
  if (warmup > 0) await runSpread(targets, warmup);
  const result = await runSpread(targets, seconds);
  process.stdout.write(line(`${label}, all ${targets.length} together`, result));
  result.perTarget.forEach((r, i) => process.stdout.write(`  ${line(`target ${i + 1} (${targets[i].url}, ${targets[i].connections} conn.)`, r)}`));
  check(label, result);
  return result;
}
