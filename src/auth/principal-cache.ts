// Principals of verified tokens, kept for a moment so that a busy integration does not read its
// bot and account on every request (on PostgreSQL a round trip per request). What may change a
// principal is a write to its bot or account row:
//
// - made on this node: the store's principal generation moves on (store/index.ts) and every
//   cached principal is read again, so a rotated secret or key, a plan moved to `free` or a
//   deleted bot takes effect at once, exactly as without the cache;
// - made on another node: this node cannot see it, so nothing is kept longer than MAX_AGE_MS.
//   That is how long such a change may take to reach this node (docs/architecture.md).

export const MAX_AGE_MS = 1000;
/** tokens kept; the oldest goes first */
const CAPACITY = 10_000;

interface Entry<Principal> {
  principal: Principal;
  generation: number;
  readAt: number;
}

/** `Principal`: what authenticate.ts makes of a token (generic here, so the two files do not import each other). */
export class PrincipalCache<Principal> {
  private readonly entries = new Map<string, Entry<Principal>>();

  constructor(
    private readonly generation: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get(token: string): Principal | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.generation === this.generation() && this.now() - entry.readAt < MAX_AGE_MS) return entry.principal;
    this.entries.delete(token);
    return undefined;
  }

  /** Reads the principal through `read` and keeps it, unless this node wrote a principal meanwhile. */
  async through(token: string, read: () => Promise<Principal>): Promise<Principal> {
    const cached = this.get(token);
    if (cached) return cached;
    const generation = this.generation();
    const readAt = this.now();
    const principal = await read();
    if (this.generation() === generation) {
      this.entries.delete(token);
      this.entries.set(token, { principal, generation, readAt });
      if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    }
    return principal;
  }
}
