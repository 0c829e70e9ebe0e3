// Embedding tokens add up here and reach the usage table at most once a second per account
// (knowledge.md: "an embedding call counts its tokens too"). A hybrid search makes one short
// embedding call; writing its tokens at once made every search a write transaction, which on
// SQLite queued 20 concurrent searches behind one another (npm run bench -- --knowledge). What a
// crash loses is at most the last second's tokens; a stop flushes them.
export interface TokenSink {
  countTokens(accountId: string, tokens: number): Promise<void>;
}

export const FLUSH_MS = 1_000;

export class TokenTally {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: TokenSink,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  add(accountId: string, tokens: number): void {
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    this.pending.set(accountId, (this.pending.get(accountId) ?? 0) + Math.floor(tokens));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what has added up (shutdown, tests). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [accountId, tokens] of batch) await this.sink.countTokens(accountId, tokens).catch(this.onError);
    });
    return this.flushing;
  }
}
