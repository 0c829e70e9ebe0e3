// The intent model of a compiled version, loaded from what publishing stored (bot_versions.nlp_model).
// Loading is parsing a JSON export, done once per version and node. A version stored without one
// (written before models were stored) is trained here, once per node: deterministic, so every
// node still gets the same model, but that first turn waits, which is why publishing stores it.
import type { CompiledBot } from '../engine/compile.js';
import type { BotRepository } from './port.js';
import { loadClassifier, trainModel, type IntentClassifier } from '../understanding/model.js';
import type { BotContent } from './model.js';

const classifiers = new WeakMap<CompiledBot, IntentClassifier>();
/** the stored version a compiled bot is (its example vectors are stored per version: intent-embeddings.ts) */
const versions = new WeakMap<CompiledBot, number>();

/** Loads the model of version `versionId` for `compiled` (a bot without intents has none). */
export async function attachModel(store: { bots: Pick<BotRepository, 'nlpModel'> }, compiled: CompiledBot, versionId: number, content: BotContent): Promise<void> {
  if (compiled.nlp === null || compiled.nlp.intents.length === 0) return;
  versions.set(compiled, versionId);
  const model = (await store.bots.nlpModel(versionId)) ?? (await trainModel(content.nlp));
  if (model !== null) classifiers.set(compiled, await loadClassifier(model, compiled.nlp.language));
}

/** A draft has no stored model: trained here, as a publish would (the preview, once per draft version). */
export async function attachDraftModel(compiled: CompiledBot, content: BotContent): Promise<void> {
  if (compiled.nlp === null || compiled.nlp.intents.length === 0) return;
  const model = await trainModel(content.nlp);
  if (model !== null) classifiers.set(compiled, await loadClassifier(model, compiled.nlp.language));
}

/** The loaded model of a compiled version, or null when it has no intents. */
export function classifierOf(compiled: CompiledBot): IntentClassifier | null {
  return classifiers.get(compiled) ?? null;
}

/** The stored version of a compiled bot with intents; null for a draft (the preview). */
export function versionIdOf(compiled: CompiledBot): number | null {
  return versions.get(compiled) ?? null;
}
