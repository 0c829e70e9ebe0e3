// Transactions over in-memory tables, as the memory implementations of the storage ports run them
// (memory-storage.ts, memory-knowledge.ts): one at a time, as a database serializes the writers
// they stand for, on a copy that replaces the tables only when the work ends without a throw.

/** A runner of transactions over the tables `get` returns; `set` installs a committed copy. */
export function memoryTransactions<T>(get: () => T, set: (tables: T) => void): <R>(work: (draft: T) => Promise<R>) => Promise<R> {
  let queue: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = queue.then(async () => {
      const draft = structuredClone(get());
      const result = await work(draft);
      set(draft);
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  };
}
