// The words of a question that a search looks for (knowledge.md "Search"): words as
// Intl.Segmenter finds them (no regular expression meets the user's text), lower-cased, without
// the language's stop words ("can", "I", "the", …), which must never make a match on their own.
// The stop-word lists are the `stopword` package's (Snowball-based, 60 languages). The terms are
// data: the store quotes or binds each one, so no user text is ever query syntax.
import { deu, eng, fra, ita, nld, por, spa } from 'stopword';

/** Enough for any real question; a longer text only repeats itself to the index. */
export const MAX_TERMS = 32;
/** A longer "word" is not a word anyone searches for. */
const MAX_TERM_CHARS = 64;

/** nlp.language (ISO 639-1) → the `stopword` package's list; English for any other. */
const LISTS: Record<string, readonly string[]> = { en: eng, de: deu, fr: fra, es: spa, it: ita, pt: por, nl: nld };
const stopSets = new Map<string, ReadonlySet<string>>();

function stopWordsOf(language: string): ReadonlySet<string> {
  let set = stopSets.get(language);
  if (set === undefined) {
    set = new Set((LISTS[language] ?? eng).map((w) => w.toLowerCase()));
    stopSets.set(language, set);
  }
  return set;
}

export function searchTerms(text: string, language: string): string[] {
  const stop = stopWordsOf(language);
  const terms = new Set<string>();
  for (const { segment, isWordLike } of new Intl.Segmenter(language, { granularity: 'word' }).segment(text)) {
    if (!isWordLike) continue;
    const word = segment.toLowerCase();
    if (word.length > MAX_TERM_CHARS || stop.has(word)) continue;
    terms.add(word);
    if (terms.size >= MAX_TERMS) break;
  }
  return [...terms];
}
