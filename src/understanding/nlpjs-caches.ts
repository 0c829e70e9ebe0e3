// The parts of a loaded nlp.js model the server reaches into (the library documents none of them;
// src/understanding/model.test.ts pins them for 4.27), and the bound on its caches.
//
// nlp.js remembers every text it classified (per model, emptied only once an hour) and every word
// it stemmed (per model, never emptied): a visitor sending distinct texts would grow the server's
// memory without end. The text caches only help a text classified twice in a row, so they are
// emptied after each classification; the stem cache saves real work (the Snowball stemmer takes
// ~25 µs a word), so it keeps at most STEMS_KEPT words and starts over when full (docs/limits.md).
import type { Nlp } from '@nlpjs/nlp';

export const STEMS_KEPT = 10_000;

interface NluInternals {
  features: Record<string, number>;
  spellCheck: { checkToken(token: string, distance: number): string };
  cache?: { results: Record<string, Record<string, unknown>> };
}
interface StemmerInternals {
  stemWord(word: string): string;
  cache: Record<string, string>;
}
interface TokenizerInternals {
  tokenize(text: string, normalize: boolean): string[];
  cache?: { normalized: Record<string, unknown>; nonNormalized: Record<string, unknown> };
}
export interface NlpInternals {
  nlu: NluInternals;
  stemmer: StemmerInternals;
  tokenizer: TokenizerInternals;
  stopwords: { isStopword(word: string): boolean };
}

interface RawNlp {
  container: { get(name: string): unknown };
  nluManager: { domainManagers: Record<string, { domains: Record<string, NluInternals> }> };
}

/** The classifier, stemmer, tokenizer and stopwords of a trained or imported model. */
export function internalsOf(nlp: Nlp, language: string): NlpInternals {
  const raw = nlp as unknown as RawNlp;
  const nlu = raw.nluManager.domainManagers[language]?.domains.master_domain;
  const stemmer = raw.container.get(`stemmer-${language}`) as StemmerInternals | undefined;
  const tokenizer = raw.container.get(`tokenizer-${language}`) as TokenizerInternals | undefined;
  const stopwords = raw.container.get(`stopwords-${language}`) as NlpInternals['stopwords'] | undefined;
  if (!nlu || !stemmer || !tokenizer || !stopwords) throw new Error(`nlp.js ${language} model without its classifier, stemmer, tokenizer or stopwords`);
  return { nlu, stemmer, tokenizer, stopwords };
}

/** A stand-in for the stemmer's plain-object cache that starts over once it holds `limit` words. */
function boundedStore(limit: number) {
  let entries = new Map<string, string>();
  const store = new Proxy({} as Record<string, string>, {
    get: (_, key) => (typeof key === 'string' ? entries.get(key) : undefined),
    set: (_, key, value: string) => {
      if (typeof key !== 'string') return true;
      if (!entries.has(key) && entries.size >= limit) entries = new Map();
      entries.set(key, value);
      return true;
    },
  });
  return { store, size: () => entries.size };
}

const count = (record: Record<string, unknown> | undefined) => (record === undefined ? 0 : Object.keys(record).length);

/** Bounds a model's caches; `afterClassify` runs after each classification. */
export function boundCaches({ nlu, stemmer, tokenizer }: NlpInternals) {
  const stems = boundedStore(STEMS_KEPT);
  stemmer.cache = stems.store;
  return {
    afterClassify() {
      if (nlu.cache) nlu.cache.results = {};
      tokenizer.cache = undefined;
    },
    /** texts and stemmed words nlp.js holds for this model */
    entries: () => ({
      texts: Object.values(nlu.cache?.results ?? {}).reduce((sum, texts) => sum + count(texts), 0) + count(tokenizer.cache?.normalized) + count(tokenizer.cache?.nonNormalized),
      words: stems.size(),
    }),
  };
}
