// The built-in model's memory of recent texts (pool.ts): the same question asked again, or the
// same words typed by many visitors ("hi", "opening hours"), costs no thread time. A plain LRU on
// a Map (insertion order is recency: a hit is moved to the end, the first entry is the oldest).
export class VectorCache {
  private readonly entries = new Map<string, Float32Array>();

  constructor(private readonly capacity: number) {}

  get(text: string): Float32Array | undefined {
    const vector = this.entries.get(text);
    if (vector === undefined) return undefined;
    this.entries.delete(text);
    this.entries.set(text, vector);
    return vector;
  }

  set(text: string, vector: Float32Array): void {
    if (this.capacity <= 0) return;
    this.entries.delete(text);
    this.entries.set(text, vector);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
