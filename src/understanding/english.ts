// How an English text is read before nlp.js classifies it (docs/decisions.md "Understanding free
// text", issue 22). nlp.js knows only the words of the examples (as stems); people write other
// words for the same thing. Word by word, a word the model does not know becomes one it does:
// 1. chat shorthand, whole words only ("u" → "you", "pls" → "please"); an unknown hyphenated word
//    is read as its parts ("check-in" → "check in" when the examples only say "check in");
// 2. a synonym (WordNet, found at training and stored with the model): "repayment" → "refund";
// 3. a typo: a word that is not English ("boardng", "refnd") becomes the known stem one letter
//    away, as nlp.js's own spell check would, but a real word ("walking", "late") is left alone.
// Every step is a table look-up or a scan of the model's stems, so reading costs O(words).

/**
 * Chat shorthand and abbreviations as people type them to a support bot, each the words it
 * stands for. Whole words only: "ur" is replaced, "urgent" is not.
 */
export const CHAT_SHORTHAND: Readonly<Record<string, string>> = Object.freeze({
  u: 'you',
  ur: 'your',
  r: 'are',
  pls: 'please',
  plz: 'please',
  thx: 'thanks',
  ty: 'thank you',
  whats: 'what is',
  wats: 'what is',
  im: 'i am',
  ive: 'i have',
  cant: 'can not',
  dont: 'do not',
  wont: 'will not',
  didnt: 'did not',
  isnt: 'is not',
  gonna: 'going to',
  wanna: 'want to',
  gotta: 'got to',
  sb: 'somebody',
  sth: 'something',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  asap: 'as soon as possible',
  eta: 'arrival time',
  tix: 'tickets',
  kg: 'kilos',
  kgs: 'kilos',
  lbs: 'pounds',
  msg: 'message',
  info: 'information',
  acct: 'account',
  b4: 'before',
  btw: 'by the way',
  pw: 'password',
});

const isWordChar = (c: string) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === "'" || c === '-' || c > '\u007f';

/**
 * The words of a text, lower-case, with shorthand spelled out; punctuation goes (nlp.js drops it
 * too). A hand-written scan, no regular expression, linear in the text.
 */
export function englishWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  const flush = () => {
    const trimmed = trimQuotes(word);
    word = '';
    if (trimmed === '') return;
    const spelled = Object.hasOwn(CHAT_SHORTHAND, trimmed) ? CHAT_SHORTHAND[trimmed] : trimmed;
    for (const piece of spelled.split(' ')) words.push(piece);
  };
  for (const c of text.toLowerCase()) {
    if (isWordChar(c)) word += c;
    else flush();
  }
  flush();
  return words;
}

function trimQuotes(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && word[start] === "'") start++;
  while (end > start && word[end - 1] === "'") end--;
  return word.slice(start, end);
}

/** What reading needs from a loaded model and the language. */
export interface EnglishReader {
  stem(word: string): string;
  /** the model's stems (its examples' and the out-of-scope set's) */
  known(stem: string): boolean;
  /** the known stem at edit distance 1, or the stem itself (nlp.js's spell check) */
  nearestKnown(stem: string): string;
  /** stem of a word the examples do not use → words of the examples with its meaning */
  synonyms: ReadonlyMap<string, string>;
  /** English words (WordNet), which are never typos */
  isEnglish(word: string): boolean;
}

/** A text as the model's own words, ready for nlp.js (which tokenizes and stems it again). */
export function readEnglish(text: string, reader: EnglishReader): string {
  const out: string[] = [];
  const read = (word: string) => {
    const stem = reader.stem(word);
    if (reader.known(stem)) out.push(word);
    // contractions ("i'd", "what's") are nlp.js's tokenizer's to split
    else if (word.includes("'")) out.push(word);
    else if (word.includes('-')) {
      for (const part of word.split('-')) if (part !== '') read(part);
    } else if (reader.synonyms.has(stem)) out.push(reader.synonyms.get(stem)!);
    else if (word.length >= 4 && !reader.isEnglish(word)) out.push(reader.nearestKnown(stem));
    else out.push(word);
  };
  for (const word of englishWords(text)) read(word);
  return out.join(' ');
}
