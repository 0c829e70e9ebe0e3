// A node's copy of a bot's passage vectors, for the nearest-neighbour half of hybrid search. The
// database has them (store/knowledge-vectors.ts); reading 10,000 vectors of 1,536 numbers (60 MB)
// for every question would cost more than the answer, so each node keeps one contiguous matrix
// per bot and model and checks a cheap stamp (count, max and sum of the passage ids: ids only
// grow) before each search: a source added, replaced or deleted on any node is seen at the next
// question. The copies are bounded by bytes, least recently used out first; a bot bigger than the
// whole budget is scanned straight from the database each time (slower, never wrong).
// The matrices are in SharedArrayBuffers and scanned on worker threads (vector-pool.ts).
import { vectorFromBytes } from '../integrations/embeddings-client.js';
import type { StoredVector, VectorStamp } from './model.js';
import { VectorPool } from './vector-pool.js';
import type { Neighbour } from './vector-scan.js';

export type { Neighbour } from './vector-scan.js';

export interface VectorSource {
  stamp(botId: string, model: string): Promise<VectorStamp>;
  vectors(botId: string, model: string): Promise<StoredVector[]>;
}

interface Matrix {
  stamp: VectorStamp;
  ids: Float64Array;
  dims: number;
  values: Float32Array;
}

/** Default budget of all copies on a node: 256 MiB (e.g. 43,000 passages at 1,536 dimensions). */
export const DEFAULT_VECTOR_CACHE_BYTES = 256 * 1024 * 1024;

const sameStamp = (a: VectorStamp, b: VectorStamp) => a.count === b.count && a.top === b.top && a.sum === b.sum;

export class VectorIndex {
  private readonly copies = new Map<string, Matrix>();
  private bytes = 0;

  constructor(
    private readonly source: VectorSource,
    private readonly budgetBytes = DEFAULT_VECTOR_CACHE_BYTES,
    private readonly pool = new VectorPool(),
  ) {}

  /** The `k` passages most similar to `query` with at least `minSimilarity`, best first. */
  async nearest(botId: string, model: string, query: Float32Array, k: number, minSimilarity: number): Promise<Neighbour[]> {
    const { ids, values, dims } = await this.matrixOf(botId, model);
    if (dims !== query.length) return [];
    return this.pool.scan({ ids, values, dims, query, k, minSimilarity });
  }

  private async matrixOf(botId: string, model: string): Promise<Matrix> {
    const key = `${botId}\u0000${model}`;
    const stamp = await this.source.stamp(botId, model);
    const copy = this.copies.get(key);
    if (copy !== undefined && sameStamp(copy.stamp, stamp)) {
      // most recently used last
      this.copies.delete(key);
      this.copies.set(key, copy);
      return copy;
    }
    if (copy !== undefined) this.drop(key, copy);
    const matrix = toMatrix(stamp, await this.source.vectors(botId, model));
    const size = matrix.values.byteLength + matrix.ids.byteLength;
    if (size <= this.budgetBytes) {
      while (this.bytes + size > this.budgetBytes && this.copies.size > 0) {
        const [oldest, old] = this.copies.entries().next().value!;
        this.drop(oldest, old);
      }
      this.copies.set(key, matrix);
      this.bytes += size;
    }
    return matrix;
  }

  private drop(key: string, matrix: Matrix): void {
    this.copies.delete(key);
    this.bytes -= matrix.values.byteLength + matrix.ids.byteLength;
  }

  /** Bytes held by the copies (tests, metrics). */
  get heldBytes(): number {
    return this.bytes;
  }
}

function toMatrix(stamp: VectorStamp, stored: StoredVector[]): Matrix {
  const dims = stored.length === 0 ? 0 : Math.floor(stored[0].vector.byteLength / 4);
  // vectors of another length (written while the provider changed its answer) are left out
  const usable = stored.filter((s) => s.vector.byteLength === dims * 4);
  // shared with the scan threads: a question posts views of them, never a copy
  const ids = new Float64Array(new SharedArrayBuffer(usable.length * Float64Array.BYTES_PER_ELEMENT));
  const values = new Float32Array(new SharedArrayBuffer(usable.length * dims * Float32Array.BYTES_PER_ELEMENT));
  usable.forEach((s, row) => {
    ids[row] = s.chunkId;
    values.set(vectorFromBytes(s.vector), row * dims);
  });
  return { stamp, ids, dims, values };
}
