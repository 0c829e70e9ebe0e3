// GET /health one after another, one every `everyMs` at most, while an attack or the soak runs:
// how long a client that has nothing to do with the attack waits. The probes are sequential, so
// a blocked event loop shows as one long probe (not as many queued ones), and a probe still
// waiting when the probe stops counts with the time it has waited so far (a lower bound, marked).
import { percentile } from './load.js';

export interface HealthFigures {
  probes: number;
  p50: number;
  p99: number;
  max: number;
  /** the last probe had no answer yet when the probe stopped: max is at least that */
  unanswered: boolean;
  /** probes answered with anything but 200 (or not at all) */
  failures: number;
}

export class HealthProbe {
  private readonly latencies: number[] = [];
  private failures = 0;
  private stopped = false;
  private pendingSince: number | null = null;
  private readonly abort = new AbortController();
  private readonly loop: Promise<void>;

  constructor(
    private readonly base: string,
    private readonly everyMs = 50,
  ) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const started = performance.now();
      this.pendingSince = started;
      try {
        const res = await fetch(`${this.base}/health`, { signal: this.abort.signal });
        await res.arrayBuffer();
        if (res.status !== 200) this.failures++;
      } catch {
        if (this.stopped) return;
        this.failures++;
      }
      this.pendingSince = null;
      const took = performance.now() - started;
      this.latencies.push(took);
      if (took < this.everyMs) await new Promise((resolve) => setTimeout(resolve, this.everyMs - took));
    }
  }

  /** The figures so far (the probe keeps going). */
  figures(): HealthFigures {
    const pending = this.pendingSince === null ? [] : [performance.now() - this.pendingSince];
    const sorted = [...this.latencies, ...pending].sort((a, b) => a - b);
    // a probe in flight matters only when it is the longest wait (a server still blocked)
    const unanswered = pending.length > 0 && pending[0] === sorted.at(-1) && pending[0] > this.everyMs;
    return { probes: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, unanswered, failures: this.failures };
  }

  /** Stops probing without waiting for a probe a blocked server has not answered. */
  async stop(): Promise<HealthFigures> {
    const figures = this.figures();
    this.stopped = true;
    this.abort.abort();
    await this.loop;
    return figures;
  }
}

const ms = (value: number) => (Number.isFinite(value) ? (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`) : 'n/a');

/** "p50 1.2 ms, p99 3.4 ms, max ≥ 12.00 s (230 probes)" */
export function healthLine(f: HealthFigures): string {
  return `p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${f.unanswered ? '≥ ' : ''}${ms(f.max)} (${f.probes} probes${f.failures ? `, ${f.failures} not 200` : ''})`;
}
export { ms as formatMs };
