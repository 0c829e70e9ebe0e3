// The minimum a knowledge answer needs (knowledge.md "The minimum"): the best passage's 0..1 score
// (knowledge/ranking.ts) must reach it, else the answer is NO_ANSWER. A bot sets it in its file's
// top-level `knowledge.minScore`, a `knowledge` step may set its own `minScore`. The default was
// chosen on the development set (bench/knowledge-dev.ts, docs/decisions.md "Knowledge ranking").

export const DEFAULT_MIN_SCORE = 0.4;

/** The setting when it is a number in 0..1, else the default. */
export const minScoreOf = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : DEFAULT_MIN_SCORE;
