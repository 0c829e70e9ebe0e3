// The nearest-neighbour scan of one bot's passage vectors (vector-index.ts keeps the matrices).
// At 90,000 passages of 256 numbers a scan is ~30 ms of CPU: on the thread that serves requests,
// 20 questions at once made every request wait for 20 scans. So a scan runs on a small pool of
// worker threads. The matrix lives in a SharedArrayBuffer: a job posts views of it (shared, never
// copied) and the question's vector, and gets back only the k best rows. The vectors are stored
// scaled to length 1 (embeddings-client.ts), as the question's is, so similarity is a plain dot
// product, and the k best are kept in a small heap instead of sorting every row.
// This module is what the threads import: it must stay free of anything but plain computation.

export interface ScanJob {
  /** passage ids, one per row (a view of a SharedArrayBuffer off the request thread) */
  ids: Float64Array;
  /** rows of `dims` numbers, one per passage, each of length 1 */
  values: Float32Array;
  dims: number;
  query: Float32Array;
  k: number;
  minSimilarity: number;
}

export interface Neighbour {
  chunkId: number;
  similarity: number;
}

/** Row `row`'s dot product with the query: four sums at once (fewer dependent additions), then the rest. */
export function dot(values: Float32Array, row: number, query: Float32Array): number {
  const dims = query.length;
  const offset = row * dims;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    a += values[offset + i] * query[i];
    b += values[offset + i + 1] * query[i + 1];
    c += values[offset + i + 2] * query[i + 2];
    d += values[offset + i + 3] * query[i + 3];
  }
  for (; i < dims; i++) a += values[offset + i] * query[i];
  return a + b + c + d;
}

/**
 * The `k` rows most similar to the query with at least `minSimilarity`, best first; equal
 * similarities by row (the earlier first). A min-heap of the k best so far: its root is the one a
 * better row pushes out, so each row costs one comparison unless it enters.
 */
export function scan({ ids, values, dims, query, k, minSimilarity }: ScanJob): Neighbour[] {
  if (dims !== query.length || k <= 0) return [];
  const rows = Math.floor(values.length / dims);
  const heapRows = new Int32Array(k);
  const heapSims = new Float64Array(k);
  let size = 0;
  // the root is the worst kept: the lowest similarity, and of equal ones the latest row
  const worse = (x: number, y: number) => heapSims[x] < heapSims[y] || (heapSims[x] === heapSims[y] && heapRows[x] > heapRows[y]);
  const swap = (x: number, y: number) => {
    const r = heapRows[x];
    heapRows[x] = heapRows[y];
    heapRows[y] = r;
    const s = heapSims[x];
    heapSims[x] = heapSims[y];
    heapSims[y] = s;
  };
  for (let row = 0; row < rows; row++) {
    const similarity = dot(values, row, query);
    if (similarity < minSimilarity) continue;
    if (size < k) {
      heapRows[size] = row;
      heapSims[size] = similarity;
      for (let at = size++; at > 0 && worse(at, (at - 1) >> 1); at = (at - 1) >> 1) swap(at, (at - 1) >> 1);
      continue;
    }
    // rows come in order: a later row equal to the worst kept does not push it out
    if (similarity <= heapSims[0]) continue;
    heapRows[0] = row;
    heapSims[0] = similarity;
    for (let at = 0; ; ) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const child = left + 1 < size && worse(left + 1, left) ? left + 1 : left;
      if (!worse(child, at)) break;
      swap(child, at);
      at = child;
    }
  }
  const best = Array.from({ length: size }, (_, i) => ({ row: heapRows[i], similarity: heapSims[i] }));
  best.sort((x, y) => y.similarity - x.similarity || x.row - y.row);
  return best.map(({ row, similarity }) => ({ chunkId: ids[row], similarity }));
}
