// What an English model stores besides nlp.js's own export (the export's `colloquy` part, which
// nlp.js does not read; docs/decisions.md "Understanding free text"). All of it is computed from
// the examples at training, sorted, so the same examples give the same bytes on every node; a
// model stored before a part existed simply lacks it and is read as it was.
import type { NlpSection } from '../engine/bot-file.js';
import { englishWords } from './english.js';
import { contentStems, type StoredExamples } from './nearest-example.js';
import type { NlpInternals } from './nlpjs-caches.js';
import { lookUp } from './wordnet.js';

export interface EnglishExtras {
  /** stem of a word no example uses → the example words it means (WordNet synonyms; english.ts) */
  synonyms?: Record<string, string>;
  /** the words of the examples, which a typo may be read as (spelling.ts) */
  words?: string[];
  /** each example's content stems, by intent, and the out-of-scope sentences' (nearest-example.ts) */
  examples?: StoredExamples;
  /** stem of a related word no example uses → the examples' stems it is related to (nearest-example.ts) */
  related?: Record<string, string>;
}

const outOfScopeStems = new WeakMap<readonly string[], string[][]>();

export const isLetters = (word: string) => [...word].every((c) => c >= 'a' && c <= 'z');

/** The words of `examples` as a typo may be read (spelling.ts), sorted. */
export function wordsOf(examples: Iterable<string>): string[] {
  const words = new Set<string>();
  for (const example of examples) for (const word of englishWords(example)) if (word.length >= 3 && isLetters(word)) words.add(word);
  return [...words].sort();
}

const sortedRecord = (found: Map<string, Set<string>>) => Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, values]) => [key, [...values].sort().join(' ')]));
const addTo = (found: Map<string, Set<string>>, key: string, value: string) => {
  if (!found.has(key)) found.set(key, new Set());
  found.get(key)!.add(value);
};

/**
 * The extras of a trained English model (`internals` its own). Synonyms: for each content word of
 * the examples, the WordNet synonyms the model does not know, as stems; a synonym of words of
 * several intents stands for all of them; stopwords ("can" is a synonym of "fire") and short words
 * have none. Related words: likewise, through WordNet's narrower and same-root words (wordnet.ts
 * RELATIONS), for the nearest-example scorer only (as synonyms they would mislead nlp.js: no gain).
 */
export function englishExtras(section: NlpSection, outOfScope: readonly string[], internals: NlpInternals): EnglishExtras {
  const { nlu, stemmer, stopwords } = internals;
  const examples = (section.intents ?? []).flatMap((intent) => intent.examples);
  const vocabulary = new Set<string>();
  for (const example of examples) for (const word of englishWords(example)) if (word.length >= 3 && !stopwords.isStopword(word) && isLetters(word)) vocabulary.add(word);
  const wordnet = lookUp(vocabulary);

  const synonyms = new Map<string, Set<string>>();
  for (const [word, others] of wordnet.synonyms) {
    for (const synonym of others) {
      const stem = stemmer.stemWord(synonym);
      if (!nlu.features[stem]) addTo(synonyms, stem, word);
    }
  }
  const related = new Map<string, Set<string>>();
  for (const [word, others] of wordnet.related) {
    for (const other of others) {
      const stem = stemmer.stemWord(other);
      // a text's synonym is read as the example's word before this scorer sees it
      if (!nlu.features[stem] && !synonyms.has(stem) && !stopwords.isStopword(other)) addTo(related, stem, stemmer.stemWord(word));
    }
  }
  const names = [...new Set([...wordnet.names].map((name) => stemmer.stemWord(name)))].sort();
  const stemsOf = (example: string) => contentStems(englishWords(example).join(' '), internals);
  const isName = new Set(names);
  const withoutNames = (stems: string[]) => stems.filter((stem) => !isName.has(stem)).join(' ');
  // the out-of-scope sentences are the same for every model: stemmed once per process
  if (!outOfScopeStems.has(outOfScope)) outOfScopeStems.set(outOfScope, outOfScope.map(stemsOf));
  return {
    synonyms: sortedRecord(synonyms),
    words: wordsOf(examples),
    examples: {
      intents: Object.fromEntries((section.intents ?? []).map((intent) => [intent.name, intent.examples.map((example) => withoutNames(stemsOf(example)))])),
      none: outOfScopeStems.get(outOfScope)!.map(withoutNames),
      names,
    },
    related: sortedRecord(related),
  };
}
