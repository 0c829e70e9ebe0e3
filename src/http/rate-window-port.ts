// What the rate limiter needs from storage to add up the counts of every node (PostgreSQL's
// rate_windows table; SQLite is one node and counts in memory). Declared here, where it is used
// (window-reporter.ts), and implemented by store/rate-windows.ts.

export interface WindowReport {
  key: string;
  /** requests this node counted since its last report */
  delta: number;
  windowMs: number;
}

export interface WindowTotal {
  /** when the window the count belongs to started (the first report's clock) */
  startedAt: number;
  /** every node's reports in that window, this one included */
  count: number;
}

export interface RateWindowTable {
  /** Adds each report to its key's window (keys must be distinct); the totals, by key. */
  report(reports: WindowReport[], now: number): Promise<Map<string, WindowTotal>>;
  /** Deletes windows that ended before `now` (they would be restarted anyway). */
  prune(now: number): Promise<number>;
}
