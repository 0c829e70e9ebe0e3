// Knowledge's own defaults and bounds (knowledge.md): how many passages an answer reads, how long
// it may take, and the minimum score an answer needs. The engine's `knowledge` step, the console's
// try-a-question route, the bot file's schema and the answer path all read them here. It lives in
// shared/, not knowledge/, because the engine and bots/ read it and knowledge/ reads both of them:
// in knowledge/ it closed a folder circle (issue 38, test/architecture/boundaries.test.ts).
//
// The minimum (knowledge.md "The minimum"): the best passage's 0..1 score (knowledge/ranking.ts)
// must reach it, else the answer is NO_ANSWER. A bot sets it in its file's top-level
// `knowledge.minScore`, a `knowledge` step may set its own `minScore`. The default was chosen on
// the development set (bench/knowledge-dev.ts, docs/decisions.md "Knowledge ranking").

export const DEFAULT_MIN_SCORE = 0.4;

/** The setting when it is a number in 0..1, else the default. */
export const minScoreOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : DEFAULT_MIN_SCORE);

/** passages an answer reads unless the step says otherwise, and at most */
export const DEFAULT_MAX_PASSAGES = 4;
export const MAX_PASSAGES = 10;
/** how long an answer may take unless the step says otherwise, and at most */
export const DEFAULT_KNOWLEDGE_TIMEOUT_MS = 15_000;
export const MAX_KNOWLEDGE_TIMEOUT_MS = 60_000;
