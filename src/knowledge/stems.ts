// Word stems for ranking passages in JavaScript (ranking.ts), so that SQLite and PostgreSQL rank
// one question's candidates the same way: nlp.js's Snowball stemmers (already the intents'), one
// per language the server stems, loaded on first use; any other language compares words as
// written. Words are lower-cased and their accents folded, as both databases' indexes do.

type Stem = (word: string) => string;

const LOADERS: Record<string, () => Promise<{ stemWord(word: string): string }>> = {
  en: async () => new (await import('@nlpjs/lang-en-min')).StemmerEn(),
  de: async () => new (await import('@nlpjs/lang-de')).StemmerDe(),
  fr: async () => new (await import('@nlpjs/lang-fr')).StemmerFr(),
  es: async () => new (await import('@nlpjs/lang-es')).StemmerEs(),
  it: async () => new (await import('@nlpjs/lang-it')).StemmerIt(),
  pt: async () => new (await import('@nlpjs/lang-pt')).StemmerPt(),
  nl: async () => new (await import('@nlpjs/lang-nl')).StemmerNl(),
};
const loaded = new Map<string, Promise<Stem>>();
/** A stem per word seen, bounded: passages repeat the same few thousand words. */
const MAX_CACHED = 50_000;

/** Lower case, accents folded (é → e), as FTS5's remove_diacritics and PostgreSQL's unaccent-free configs see it. */
export const folded = (word: string): string =>
  word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');

export function stemmerOf(language: string): Promise<Stem> {
  const key = LOADERS[language] ? language : 'none';
  let stem = loaded.get(key);
  if (stem === undefined) {
    stem = (async () => {
      const loader = LOADERS[key];
      if (loader === undefined) return folded;
      const stemmer = await loader();
      const cache = new Map<string, string>();
      return (word: string) => {
        const plain = folded(word);
        let s = cache.get(plain);
        if (s === undefined) {
          s = stemmer.stemWord(plain);
          if (cache.size >= MAX_CACHED) cache.clear();
          cache.set(plain, s);
        }
        return s;
      };
    })();
    loaded.set(key, stem);
  }
  return stem;
}
