// What the intent model can be trained on: the languages whose nlp.js package the server ships
// (tokenizer, stemmer and a built-in out-of-scope set), and how big a model a bot file may ask
// for. Training runs on a worker thread (trainer.ts); these limits keep the worst allowed model to
// a few seconds and well under the thread's memory cap (docs/limits.md "Intents and entities").

export const NLP_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
export type NlpLanguage = (typeof NLP_LANGUAGES)[number];

export const NLP_LIMITS = Object.freeze({
  intents: 50,
  examplesPerIntent: 100,
  /** examples of all intents together */
  examples: 1_000,
  exampleLength: 200,
  /** characters of all examples together */
  exampleChars: 32_768,
  entities: 100,
  /** spellings of one synonym entity, its canonical values included */
  spellingsPerEntity: 2_000,
  spellingsPerValue: 100,
  /** a canonical value or a spelling, in characters */
  spellingLength: 100,
  /** characters of all spellings (canonical values included) of all entities together */
  entityChars: 65_536,
});
