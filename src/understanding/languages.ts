// What the intent model can be trained on: the languages whose nlp.js package the server ships
// (tokenizer, stemmer and a built-in out-of-scope set), and how big a model a bot file may ask
// for. Training runs on the publishing request: the limits keep it to seconds (bench/run.ts).

export const NLP_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
export type NlpLanguage = (typeof NLP_LANGUAGES)[number];

export const NLP_LIMITS = Object.freeze({
  intents: 500,
  examplesPerIntent: 200,
  exampleLength: 500,
  entities: 100,
});
