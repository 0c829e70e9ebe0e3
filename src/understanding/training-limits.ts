// The caps of the intent-model training thread (trainer.ts), apart from it so that the
// configuration can name them without loading nlp.js. docs/limits.md says why these numbers.
export interface TrainingLimits {
  /** the training thread's heap (V8 old generation), in MB */
  memoryMb: number;
  /** how long one training may run */
  timeoutMs: number;
  /** trainings that may wait while one runs; one more is refused with 503 TRAINING_BUSY */
  queue: number;
}

export const DEFAULT_TRAINING_LIMITS: TrainingLimits = Object.freeze({ memoryMb: 512, timeoutMs: 30_000, queue: 8 });
