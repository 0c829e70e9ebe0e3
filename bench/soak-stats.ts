// What the soak run measures and prints: every request's outcome and latency, one line per
// window (requests, 5xx, other non-2xx by status and Code, p50/p99, the server's memory), and the
// summary table at the end with the memory growth between the first and the last minute.
import fs from 'node:fs';
import { percentile } from './load.js';

export interface Sample {
  /** ms since the start of the traffic */
  at: number;
  kind: string;
  /** 0 when no answer came (connection refused or reset, timeout) */
  status: number;
  /** the error's Code, or the network error's name */
  code?: string;
  ms: number;
}

export interface MemorySample {
  at: number;
  rssBytes: number;
  heapBytes: number | null;
}

export class Recorder {
  readonly samples: Sample[] = [];
  readonly memory: MemorySample[] = [];
  private startedAt = performance.now();

  /** Forgets what was recorded (the seeding) and counts time from now. */
  restart(): void {
    this.samples.length = 0;
    this.memory.length = 0;
    this.startedAt = performance.now();
  }

  now(): number {
    return performance.now() - this.startedAt;
  }

  add(sample: Omit<Sample, 'at'>): void {
    this.samples.push({ ...sample, at: this.now() });
  }

  /** The server's resident memory (from /proc, as the kernel counts it) and V8 heap (from /metrics). */
  async sampleMemory(pid: number, base: string): Promise<MemorySample | null> {
    let rssBytes = rssOf(pid);
    if (rssBytes === null) return null; // the process is gone
    let heapBytes: number | null = null;
    try {
      const text = await (await fetch(`${base}/metrics`)).text();
      const heap = /^\S*nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([\d.e+]+)$/m.exec(text);
      heapBytes = heap ? Number(heap[1]) : null;
      if (!Number.isFinite(rssBytes)) rssBytes = Number(/^\S*resident_memory_bytes(?:\{[^}]*\})? ([\d.e+]+)$/m.exec(text)?.[1]);
    } catch {
      // metrics unavailable: RSS alone
    }
    const sample = { at: this.now(), rssBytes, heapBytes };
    this.memory.push(sample);
    return sample;
  }
}

/** A process's resident memory in bytes, from /proc as the kernel counts it (NaN when unreadable); null when it is gone. */
export function rssOf(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
  } catch {
    return null;
  }
}

export const is5xx = (s: Sample) => s.status >= 500;
export const failed = (s: Sample) => s.status === 0 || s.status >= 500;

const mb = (bytes: number | null | undefined) => (bytes === null || bytes === undefined || !Number.isFinite(bytes) ? '   n/a' : (bytes / 1048576).toFixed(1).padStart(6));
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');
const clock = (atMs: number) => {
  const s = Math.round(atMs / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** "404 CONVERSATION_NOT_FOUND ×3, 0 ECONNRESET ×1": the answers that were neither 2xx nor 5xx, or 5xx/none. */
export function byCode(samples: Sample[]): string {
  const counts = new Map<string, number>();
  for (const s of samples) {
    const key = `${s.status} ${s.code ?? ''}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ') || '-'
  );
}

/** One progress line for the samples of (from, to]. */
export function windowLine(recorder: Recorder, from: number, to: number, extra: string): string {
  const window = recorder.samples.filter((s) => s.at > from && s.at <= to);
  const latencies = window.map((s) => s.ms).sort((a, b) => a - b);
  const total = recorder.samples.filter((s) => s.at <= to).length;
  const memory = recorder.memory.at(-1);
  const other = window.filter((s) => s.status !== 0 && (s.status < 200 || (s.status >= 300 && s.status < 500)));
  return (
    `[${clock(to)}] ${String(window.length).padStart(5)} requests (${total} in all), ` +
    `${window.filter(failed).length} 5xx/no answer, other non-2xx: ${byCode(other)}; ` +
    `p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms; ` +
    `RSS ${mb(memory?.rssBytes).trim()} MB, heap ${mb(memory?.heapBytes).trim()} MB; ${extra}`
  );
}

/** Mean of the memory samples taken in [from, to]. */
function meanMemory(samples: MemorySample[], from: number, to: number, pick: (m: MemorySample) => number | null): number | null {
  const values = samples
    .filter((m) => m.at >= from && m.at <= to)
    .map(pick)
    .filter((v): v is number => v !== null && Number.isFinite(v));
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/**
 * The first and the last minute of the run, and the growth between them. In a run shorter than
 * two minutes, "minute" means the first and the last half of the run.
 */
export function memoryGrowth(recorder: Recorder, durationMs: number) {
  const span = Math.min(60_000, durationMs / 2);
  const windows = { first: [0, span], last: [durationMs - span, durationMs] } as const;
  const of = (pick: (m: MemorySample) => number | null) => {
    const first = meanMemory(recorder.memory, ...windows.first, pick);
    const last = meanMemory(recorder.memory, ...windows.last, pick);
    return { first, last, growth: first !== null && last !== null ? last - first : null, percent: first && last !== null ? ((last - first) / first) * 100 : null };
  };
  return { spanSeconds: Math.round(span / 1000), rss: of((m) => m.rssBytes), heap: of((m) => m.heapBytes) };
}

/** The table at the end: one row per kind of traffic, then the totals and the memory. */
export function summaryTable(recorder: Recorder, durationMs: number, notes: string[]): string {
  const kinds = [...new Set(recorder.samples.map((s) => s.kind))].sort();
  const row = (name: string, samples: Sample[]) => {
    const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
    const ok = samples.filter((s) => s.status >= 200 && s.status < 300).length;
    return `| ${name.padEnd(22)} | ${String(samples.length).padStart(8)} | ${String(ok).padStart(8)} | ${String(samples.filter(failed).length).padStart(9)} | ${ms(percentile(latencies, 50)).padStart(7)} | ${ms(percentile(latencies, 99)).padStart(7)} | ${ms(latencies.at(-1) ?? NaN).padStart(8)} | ${byCode(samples.filter((s) => s.status !== 0 && s.status >= 300 && s.status < 500))}`;
  };
  const memory = memoryGrowth(recorder, durationMs);
  const growth = (g: ReturnType<typeof memoryGrowth>['rss']) =>
    `${mb(g.first).trim()} MB → ${mb(g.last).trim()} MB (${g.growth === null ? 'n/a' : `${g.growth >= 0 ? '+' : ''}${(g.growth / 1048576).toFixed(1)} MB, ${g.percent!.toFixed(1)}%`})`;
  return [
    '| traffic                | requests |      2xx | 5xx/none |  p50 ms |  p99 ms |   max ms | other non-2xx',
    '|------------------------|----------|----------|-----------|---------|---------|----------|--------------',
    ...kinds.map((kind) =>
      row(
        kind,
        recorder.samples.filter((s) => s.kind === kind),
      ),
    ),
    row('all', recorder.samples),
    '',
    `Memory, mean of the first ${memory.spanSeconds} s and of the last ${memory.spanSeconds} s: RSS ${growth(memory.rss)}; V8 heap used ${growth(memory.heap)}`,
    ...notes,
  ].join('\n');
}
