// A node's copy of a bot's passage vectors, for the nearest-neighbour half of hybrid search. The
// database has them (store/knowledge-vectors.ts); reading 10,000 vectors of 1,536 numbers (60 MB)
// for every question would cost more than the answer, so each node keeps one contiguous matrix
// per bot and model and checks a cheap stamp (count, max and sum of the passage ids: ids only
// grow) before each search: a source added, replaced or deleted on any node is seen at the next
// question. The copies are bounded by bytes, least recently used out first; a bot bigger than the
// whole budget is scanned straight from the database each time (slower, never wrong).
import { vectorFromBytes } from '../integrations/embeddings-client.js';
import type { StoredVector, VectorStamp } from '../store/knowledge-vectors.js';

export interface VectorSource {
  stamp(botId: string, model: string): Promise<VectorStamp>;
  vectors(botId: string, model: string): Promise<StoredVector[]>;
}

export interface Neighbour {
  chunkId: number;
  similarity: number;
}

interface Matrix {
  stamp: VectorStamp;
  ids: Float64Array;
  dims: number;
  values: Float32Array;
}

/** Default budget of all copies on a node: 256 MiB (e.g. 43,000 passages at 1,536 dimensions). */
export const DEFAULT_VECTOR_CACHE_BYTES = 256 * 1024 * 1024;

/** Rows scanned between two yields to the event loop (~1 ms of work at 1,536 dimensions). */
const SLICE_ROWS = 1024;

const sameStamp = (a: VectorStamp, b: VectorStamp) => a.count === b.count && a.top === b.top && a.sum === b.sum;

export class VectorIndex {
  private readonly copies = new Map<string, Matrix>();
  private bytes = 0;

  constructor(
    private readonly source: VectorSource,
    private readonly budgetBytes = DEFAULT_VECTOR_CACHE_BYTES,
  ) {}

  /** The `k` passages most similar to `query` with at least `minSimilarity`, best first. */
  async nearest(botId: string, model: string, query: Float32Array, k: number, minSimilarity: number): Promise<Neighbour[]> {
    const matrix = await this.matrixOf(botId, model);
    if (matrix.dims !== query.length) return [];
    const best: Neighbour[] = [];
    const { ids, values, dims } = matrix;
    // a row must reach this to enter: the minimum similarity, then the k-th best once there are k
    let floor = minSimilarity;
    for (let start = 0; start < ids.length; start += SLICE_ROWS) {
      // the scan is CPU on the thread that serves every request: it lets them in between slices
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      floor = scanSlice(values, dims, query, start, Math.min(ids.length, start + SLICE_ROWS), floor, (row, dot) => {
        // insertion into a short sorted list: k is at most a few dozen
        let at = best.length === k ? k - 1 : best.length;
        if (best.length === k) best.pop();
        while (at > 0 && best[at - 1].similarity < dot) at--;
        best.splice(at, 0, { chunkId: ids[row], similarity: dot });
        return best.length === k ? Math.max(minSimilarity, best[k - 1].similarity) : minSimilarity;
      });
    }
    return best;
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

/** Dot products of rows [from, to) with the query (a plain loop over typed arrays: V8 keeps it tight). */
function scanSlice(values: Float32Array, dims: number, query: Float32Array, from: number, to: number, floor: number, keep: (row: number, dot: number) => number): number {
  for (let row = from; row < to; row++) {
    let dot = 0;
    const offset = row * dims;
    for (let i = 0; i < dims; i++) dot += values[offset + i] * query[i];
    if (dot >= floor) floor = keep(row, dot);
  }
  return floor;
}

function toMatrix(stamp: VectorStamp, stored: StoredVector[]): Matrix {
  const dims = stored.length === 0 ? 0 : Math.floor(stored[0].vector.byteLength / 4);
  // vectors of another length (written while the provider changed its answer) are left out
  const usable = stored.filter((s) => s.vector.byteLength === dims * 4);
  const ids = new Float64Array(usable.length);
  const values = new Float32Array(usable.length * dims);
  usable.forEach((s, row) => {
    ids[row] = s.chunkId;
    values.set(vectorFromBytes(s.vector), row * dims);
  });
  return { stamp, ids, dims, values };
}
