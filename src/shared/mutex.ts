// A promise-chain mutex: callers run one after another in arrival order. KeyedMutex keeps one per
// key (a conversation) and forgets keys that nobody waits for, so memory follows live traffic.

export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    }
  }
}
