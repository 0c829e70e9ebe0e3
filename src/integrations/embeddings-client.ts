// Vectors from any OpenAI-compatible `POST /embeddings` endpoint (knowledge.md "With an embedding
// model"), through the same client, guard and capped body as chat (ai-client.ts). Texts go in
// batches of at most EMBED_BATCH inputs, one call each, in order; one deadline per call, nothing
// retried. The answer is checked whole: one vector per input, all of one length, finite numbers;
// anything else is ERROR. Vectors come back scaled to length 1, so a dot product is the cosine.
import { providerClient, timedOut, type AiProvider } from './ai-client.js';

/** A provider that has an embedding model: the chat provider's URL and key, another model name. */
export type EmbeddingProvider = AiProvider;

export type EmbedResult = { status: 'OK'; vectors: Float32Array[]; tokens: number } | { status: 'ERROR' | 'TIMEOUT'; vectors: []; tokens: number };

/** What the users of an embedding model are given (main.ts wires it once for knowledge and intents). */
export interface EmbeddingAccess {
  /** the bot's embedding model on its provider, or null (understanding-service.ts) */
  provider(botId: string): Promise<EmbeddingProvider | null>;
  embed(provider: EmbeddingProvider, texts: readonly string[], options: EmbedOptions): Promise<EmbedResult>;
  /** tokens the provider reported, counted in the bot's account usage (AiTokens) */
  countTokens(botId: string, tokens: number): Promise<void>;
  allowPrivateNetwork: boolean;
  /** the lowest cosine that counts as a match (COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY) */
  minSimilarity: number;
  onError?(error: unknown): void;
}

export interface EmbedOptions {
  /** the deadline of each call (a batch) */
  timeoutMs: number;
  allowPrivateNetwork: boolean;
}

/** Inputs per call: OpenAI takes up to 2,048, local servers far fewer; 64 passages of ~1,500 characters is ~25k tokens. */
export const EMBED_BATCH = 64;
/** The longest vector accepted (text-embedding-3-large has 3,072). */
export const MAX_DIMENSIONS = 4096;
/** A batch's answer as JSON: 64 × 4,096 numbers of up to ~24 characters, with room to spare. */
const MAX_EMBEDDING_RESPONSE_BYTES = 8 * 1024 * 1024;

const failed = (status: 'ERROR' | 'TIMEOUT', tokens = 0): EmbedResult => ({ status, vectors: [], tokens });

/** Never throws. `texts` may be any length: they are sent EMBED_BATCH at a time. */
export async function embedTexts(provider: EmbeddingProvider, texts: readonly string[], options: EmbedOptions): Promise<EmbedResult> {
  const vectors: Float32Array[] = [];
  let tokens = 0;
  for (let start = 0; start < texts.length; start += EMBED_BATCH) {
    const batch = await embedBatch(provider, texts.slice(start, start + EMBED_BATCH), options);
    tokens += batch.tokens;
    if (batch.status !== 'OK') return failed(batch.status, tokens);
    if (vectors.length > 0 && batch.vectors[0].length !== vectors[0].length) return failed('ERROR', tokens);
    vectors.push(...batch.vectors);
  }
  return { status: 'OK', vectors, tokens };
}

async function embedBatch(provider: EmbeddingProvider, input: string[], options: EmbedOptions): Promise<EmbedResult> {
  const client = await providerClient(provider, options.timeoutMs, options.allowPrivateNetwork, MAX_EMBEDDING_RESPONSE_BYTES);
  if (client === null) return failed('ERROR');
  // an empty input is refused by OpenAI: a space stands for it (a heading-less, text-less passage cannot exist, a blank question can)
  const sent = input.map((text) => (text.trim() === '' ? ' ' : text));
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    // 'float': the client would ask for base64 otherwise, which some local servers do not speak
    const answer: unknown = await client.embeddings.create({ model: provider.model, input: sent, encoding_format: 'float' }, { signal: abort.signal });
    return vectorsOf(answer, input.length);
  } catch (error) {
    return failed(timedOut(error, abort) ? 'TIMEOUT' : 'ERROR');
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's vectors in input order, unit length; ERROR for anything that does not fit. */
export function vectorsOf(answer: unknown, expected: number): EmbedResult {
  const body = answer as { data?: unknown; usage?: { total_tokens?: unknown; prompt_tokens?: unknown } } | null;
  const reported = Number(body?.usage?.total_tokens ?? body?.usage?.prompt_tokens ?? 0);
  const tokens = Number.isFinite(reported) && reported > 0 ? Math.floor(reported) : 0;
  if (!Array.isArray(body?.data) || body.data.length !== expected) return failed('ERROR', tokens);
  const vectors: Array<Float32Array | undefined> = new Array(expected);
  for (const [position, item] of (body.data as Array<{ index?: unknown; embedding?: unknown }>).entries()) {
    const index = item?.index === undefined ? position : item.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expected || vectors[index] !== undefined) return failed('ERROR', tokens);
    const vector = unitVector(item?.embedding);
    if (vector === null) return failed('ERROR', tokens);
    vectors[index] = vector;
  }
  const all = vectors as Float32Array[];
  if (all.some((v) => v.length !== all[0].length)) return failed('ERROR', tokens);
  return { status: 'OK', vectors: all, tokens };
}

function unitVector(embedding: unknown): Float32Array | null {
  if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_DIMENSIONS) return null;
  const vector = new Float32Array(embedding.length);
  let norm = 0;
  for (let i = 0; i < embedding.length; i++) {
    const x = embedding[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) return null;
    vector[i] = x;
    norm += x * x;
  }
  // an all-zero vector means nothing: it is refused rather than made to match everything equally
  if (norm === 0) return null;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return vector;
}

/** Cosine of two unit vectors of one length (0 when the lengths differ: another model's). */
export function similarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/** Float32, little-endian, as stored in the database (BLOB / bytea). */
export function vectorBytes(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i], i * 4);
  return out;
}

export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}
