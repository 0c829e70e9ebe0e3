// How an English text is read before nlp.js classifies it (docs/decisions.md "Understanding free
// text", issue 22). nlp.js knows only the words of the examples (as stems); people write other
// words for the same thing. Word by word, a word the model does not know becomes one it does:
// 1. chat shorthand, whole words only ("u" → "you", "pls" → "please"); an unknown hyphenated word
//    is read as its parts ("check-in" → "check in" when the examples only say "check in");
// 2. a synonym (WordNet, found at training and stored with the model): "repayment" → "refund";
// 3. a typo: a word that is not English ("boardng", "refnd", "cancle") becomes the nearest word
//    or stem the model knows (spelling.ts), but a real word ("walking", "late") is left alone.
// Every step is a table look-up or a bounded scan of the model's words, so reading is linear in
// the text.

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
  // the other contractions as typed without their apostrophe (those that are not words themselves:
  // "ill", "its", "well", "were", "id", "hell" and "lets" stay as they are)
  doesnt: 'does not',
  hasnt: 'has not',
  havent: 'have not',
  hadnt: 'had not',
  wasnt: 'was not',
  werent: 'were not',
  arent: 'are not',
  couldnt: 'could not',
  wouldnt: 'would not',
  shouldnt: 'should not',
  hows: 'how is',
  wheres: 'where is',
  whens: 'when is',
  whos: 'who is',
  thats: 'that is',
  theres: 'there is',
  youre: 'you are',
  theyre: 'they are',
  youve: 'you have',
  lemme: 'let me',
  gimme: 'give me',
  ya: 'you',
  abt: 'about',
  ppl: 'people',
  cuz: 'because',
  coz: 'because',
  rn: 'right now',
  thru: 'through',
  tonite: 'tonight',
  nite: 'night',
  hrs: 'hours',
  hr: 'hour',
  mins: 'minutes',
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
  text = withoutLinks(text);
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

/**
 * The text without its links and addresses (`https://…`, `www.…`, `ann@example.org`): their
 * pieces are not words of what the user asks ("example" is a WordNet synonym of
 * "representative", which made "Track https://example.org/… please" a request for a person).
 * Whitespace-separated tokens, each checked by `includes`: linear, no regular expression.
 */
function withoutLinks(text: string): string {
  if (!text.includes('://') && !text.includes('www.') && !text.includes('@')) return text;
  return text
    .split(/\s+/)
    .filter((token) => {
      const t = token.toLowerCase();
      return !(t.includes('://') || t.startsWith('www.') || (t.includes('@') && t.includes('.')));
    })
    .join(' ');
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
  /** the nearest word or stem the model knows, if one is near enough (spelling.ts) */
  nearestKnown(word: string): string | undefined;
  /** stem of a word the examples do not use → words of the examples with its meaning */
  synonyms: ReadonlyMap<string, string>;
  /** English words (WordNet), which are never typos */
  isEnglish(word: string): boolean;
}

/**
 * Typo look-ups a text gets: each scans the model's words of a similar length (spelling.ts), and
 * a 16 KB text of made-up words would otherwise cost a scan per word on the turn's path. A chat
 * message has a few typos; the words after the 16th unknown one stay as written.
 */
export const TYPO_LOOKUPS = 16;

/** A text as the model's own words, ready for nlp.js (which tokenizes and stems it again). */
export function readEnglish(text: string, reader: EnglishReader): string {
  const out: string[] = [];
  let lookups = 0;
  const read = (word: string) => {
    const stem = reader.stem(word);
    if (reader.known(stem)) out.push(word);
    // contractions ("i'd", "what's") are nlp.js's tokenizer's to split
    else if (word.includes("'")) out.push(word);
    else if (word.includes('-')) {
      for (const part of word.split('-')) if (part !== '') read(part);
    } else if (reader.synonyms.has(stem)) out.push(reader.synonyms.get(stem)!);
    else if (lookups < TYPO_LOOKUPS && !reader.isEnglish(word)) {
      lookups += 1;
      out.push(reader.nearestKnown(word) ?? word);
    } else out.push(word);
  };
  for (const word of englishWords(text)) read(word);
  return out.join(' ');
}
