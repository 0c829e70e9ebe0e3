// The intent model of a bot version, trained with nlp.js (docs/decisions.md "Understanding free
// text"). Training runs when a version is published, never in a turn: the exported model is stored
// with the version and every node loads that same model, so a version gives the same answers
// everywhere and after a restart. nlp.js trains deterministically (same examples → same export),
// which is also what lets a clone or a rollback train again and get the model its source had.
import { containerBootstrap } from '@nlpjs/core';
import { LangDe } from '@nlpjs/lang-de';
import { LangEn } from '@nlpjs/lang-en-min';
import { LangEs } from '@nlpjs/lang-es';
import { LangFr } from '@nlpjs/lang-fr';
import { LangIt } from '@nlpjs/lang-it';
import { LangNl } from '@nlpjs/lang-nl';
import { LangPt } from '@nlpjs/lang-pt';
import { Nlp } from '@nlpjs/nlp';
import type { NlpSection } from '../engine/bot-file.js';
import type { ClassifyAnswer } from '../engine/types.js';
import { OUT_OF_SCOPE_DE } from './out-of-scope-de.js';
import { OUT_OF_SCOPE_EN } from './out-of-scope-en.js';
import { OUT_OF_SCOPE_ES } from './out-of-scope-es.js';
import { OUT_OF_SCOPE_FR } from './out-of-scope-fr.js';
import { OUT_OF_SCOPE_IT } from './out-of-scope-it.js';
import { OUT_OF_SCOPE_NL } from './out-of-scope-nl.js';
import { OUT_OF_SCOPE_PT } from './out-of-scope-pt.js';
import type { NlpLanguage } from './languages.js';
import { englishWords, readEnglish } from './english.js';
import { boundCaches, internalsOf, type NlpInternals } from './nlpjs-caches.js';
import { Vocabulary } from './spelling.js';
import { englishExtras, wordsOf, type EnglishExtras } from './english-training.js';
import { combineScores, contentStems, NearestExamples } from './nearest-example.js';
import { englishLemmas, isEnglish } from './wordnet.js';

/** nlp.js's own name for the out-of-scope class; bot files may not name an intent so (nlp-rules.ts). */
const OUT_OF_SCOPE = 'None';

const LANGUAGE_PLUGINS: Record<NlpLanguage, unknown> = { en: LangEn, de: LangDe, fr: LangFr, es: LangEs, it: LangIt, pt: LangPt, nl: LangNl };
export const OUT_OF_SCOPE_EXAMPLES: Record<NlpLanguage, readonly string[]> = {
  en: OUT_OF_SCOPE_EN,
  de: OUT_OF_SCOPE_DE,
  fr: OUT_OF_SCOPE_FR,
  es: OUT_OF_SCOPE_ES,
  it: OUT_OF_SCOPE_IT,
  pt: OUT_OF_SCOPE_PT,
  nl: OUT_OF_SCOPE_NL,
};

// nlp.js's classifier settings for a language, given in full (a configuration named for the
// language replaces the library's default `nlu-??`, it does not add to it). All are the library's
// defaults but `spellCheck`: a word the model never saw is read as the known word (stem) at edit
// distance 1 ("allowence", "refnd", "cancell"), which the library does only when asked. It applies
// when a text is classified, so models stored by earlier versions get it too (docs/decisions.md).
// English does its own, which leaves real words alone (english.ts), so the library's is off there.
const classifierSettings = (language: NlpLanguage) => ({
  keepStopwords: true,
  nonefeatureValue: 1,
  nonedeltaMultiplier: 1.2,
  spellCheck: language !== 'en',
  spellCheckDistance: 1,
  filterZeros: true,
  log: false,
});

/** What the server adds to nlp.js's export, under a key the library does not read (english-training.ts). */
const EXTRAS_KEY = 'colloquy';

export interface IntentClassifier {
  readonly language: string;
  /** every intent of the bot with its score, best first */
  classify(text: string): Promise<ClassifyAnswer>;
  /** what nlp.js holds in its caches for this model (bounded: nlpjs-caches.ts) */
  cachedEntries(): { texts: number; words: number };
}

let trainings = 0;
/** How many models this process trained (GET /metrics; tests check that turns never train). */
export const trainingCount = (): number => trainings;

const languageOf = (section: NlpSection): NlpLanguage => (section.language === undefined ? 'en' : (section.language as NlpLanguage));

async function newNlp(language: NlpLanguage): Promise<Nlp> {
  const container = await containerBootstrap();
  container.use(LANGUAGE_PLUGINS[language] ?? LangEn);
  container.registerConfiguration(`nlu-${language}`, classifierSettings(language), true);
  // Nothing on disk and no logging: the model lives in the database, the server has its own log.
  return new Nlp({ languages: [language], autoSave: false, autoLoad: false, nlu: { log: false }, forceNER: false, calculateSentiment: false }, container);
}

// A master's publish trains the same section again for each clone, and a rollback republishes an
// older one: the few latest models, by their section, save that work (the result is identical).
const RECENT = 16;
const recent = new Map<string, Promise<string | null>>();

/** Where training runs: here by default; the server hands it to a worker thread (trainer.ts). */
let runTraining: (section: NlpSection) => Promise<string> = (section) => train(section);
export function trainWith(runner: (section: NlpSection) => Promise<string>): void {
  runTraining = runner;
}

/** The exported model (JSON) for a version's `nlp` section; null when it has no intents to learn. */
export function trainModel(section: NlpSection | undefined): Promise<string | null> {
  if (section === undefined || !Array.isArray(section.intents) || section.intents.length === 0) return Promise.resolve(null);
  const key = JSON.stringify([section.language ?? 'en', section.intents]);
  const known = recent.get(key);
  if (known) return known;
  trainings += 1;
  const training = runTraining(section);
  recent.set(key, training);
  training.catch(() => recent.delete(key));
  while (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return training;
}

/** Trains a model where it is called (the worker thread calls this). */
export async function train(section: NlpSection): Promise<string> {
  const language = languageOf(section);
  const nlp = await newNlp(language);
  // English examples are read as texts will be: shorthand spelled out, "check-in" as two words
  const asTrained = language === 'en' ? (text: string) => englishWords(text).join(' ') : (text: string) => text;
  for (const intent of section.intents ?? []) for (const example of intent.examples) nlp.addDocument(language, asTrained(example), intent.name);
  for (const example of OUT_OF_SCOPE_EXAMPLES[language] ?? []) nlp.addDocument(language, asTrained(example), OUT_OF_SCOPE);
  await nlp.train();
  const exported = nlp.export(true);
  if (language !== 'en') return exported;
  const model = JSON.parse(exported) as Record<string, unknown>;
  model[EXTRAS_KEY] = englishExtras(section, OUT_OF_SCOPE_EN, internalsOf(nlp, 'en'));
  return JSON.stringify(model);
}

/** a typo of an out-of-scope word is read as that word, for every English model */
let outOfScopeWords: readonly string[] | undefined;

/** English texts are read into the model's own words first (english.ts). */
async function englishReading(extras: EnglishExtras | undefined, { nlu, stemmer, stopwords }: NlpInternals): Promise<(text: string) => string> {
  // models stored before issue 22's synonyms have none; they still get the shorthand and typos
  const synonyms = new Map(Object.entries(extras?.synonyms ?? {}));
  const lemmas = await englishLemmas();
  // models stored before the words were kept have only their stems to be read as
  outOfScopeWords ??= wordsOf(OUT_OF_SCOPE_EN);
  const vocabulary = new Vocabulary([...(extras?.words ?? []), ...outOfScopeWords, ...Object.keys(nlu.features)]);
  const reader = {
    stem: (word: string) => stemmer.stemWord(word),
    known: (stem: string) => nlu.features[stem] !== undefined,
    nearestKnown: (word: string) => vocabulary.nearest(word),
    synonyms,
    // WordNet has no function words ("were", "does", "whom"): a stopword is English too
    isEnglish: (word: string) => isEnglish(word, lemmas) || stopwords.isStopword(word),
  };
  return (text) => readEnglish(text, reader);
}

/**
 * nlp.js's best score from which the nearest-example opinion is not asked (it costs 8–18 µs of CPU
 * a text): past this it could only change an answer through a near-exact match of another intent,
 * which happened on none of the six held-out sets (docs/decisions.md), and most texts a bot
 * understands score this high.
 */
export const SURE = 0.95;

/** A stored model, ready to classify. */
export async function loadClassifier(model: string, language = 'en'): Promise<IntentClassifier> {
  const lang = (language in LANGUAGE_PLUGINS ? language : 'en') as NlpLanguage;
  const nlp = await newNlp(lang);
  nlp.import(model);
  const internals = internalsOf(nlp, lang);
  const caches = boundCaches(internals);
  const extras = lang === 'en' ? (JSON.parse(model) as Record<string, EnglishExtras | undefined>)[EXTRAS_KEY] : undefined;
  const read = lang === 'en' ? await englishReading(extras, internals) : (text: string) => text;
  // English models stored before issue 22's second scorer have no examples: nlp.js's scores alone
  const nearest = extras?.examples === undefined ? undefined : new NearestExamples(extras.examples, extras.related);
  return {
    language: lang,
    cachedEntries: caches.entries,
    async classify(text) {
      const reading = read(text);
      const { classifications } = await nlp.classify(lang, reading);
      const intents = classifications
        .filter((c) => c.intent !== OUT_OF_SCOPE && Number.isFinite(c.score))
        .map((c) => ({ intent: c.intent, score: c.score }))
        .sort((a, b) => b.score - a.score || (a.intent < b.intent ? -1 : 1));
      // a text nlp.js is sure of costs nothing more; the second opinion is read before the
      // caches are emptied, so it finds the text already tokenized (nlpjs-caches.ts)
      const near = (intents[0]?.score ?? 0) >= SURE ? undefined : nearest?.nearest(contentStems(reading, internals));
      caches.afterClassify();
      return { intents: near === undefined ? intents : combineScores(intents, near) };
    },
  };
}
