// The `nlp` section of a live version as the engine runs it (understanding.md): the threshold, the
// intent names (and examples, which the AI fallback shows the model) and the entities ready to
// match. Pure and defensive like compile.ts: a malformed part is left out, never a crash.
import type { RE2JS } from 're2js';
import { compileAuthorRegex } from '../author-regex.js';

export const DEFAULT_LANGUAGE = 'en';
export const DEFAULT_THRESHOLD = 0.7;

export interface CompiledIntent {
  readonly name: string;
  readonly examples: readonly string[];
}

/**
 * A synonym entity's spellings as a trie over normalized words, built once per compiled version:
 * finding the longest spelling that starts at a word walks at most as many words as the longest
 * spelling has (bounded at save time), whatever the number of spellings, so matching a text is
 * linear in the text (a scan of every spelling at every word took 13.6 s for a 16 KB text and
 * 300,000 synonyms, issue 22).
 */
export interface SpellingNode {
  /** the canonical value of the spelling that ends here; the first spelling in file order wins */
  value?: string;
  readonly next: Map<string, SpellingNode>;
}

export type CompiledEntity = { readonly name: string; readonly kind: 'values'; readonly spellings: SpellingNode } | { readonly name: string; readonly kind: 'regex'; readonly regex: RE2JS | null };

export interface CompiledNlp {
  readonly language: string;
  readonly threshold: number;
  readonly aiFallback: boolean;
  readonly intents: readonly CompiledIntent[];
  /** in file order; keyed lookups go through entityNamed */
  readonly entities: readonly CompiledEntity[];
}

/**
 * Words as entities compare them: lower case, accents dropped, split on anything that is not a
 * letter or a digit ("Extra-Large!" → ["extra", "large"]). Linear in the text.
 */
export function normalizedWords(text: string): Array<{ word: string; start: number; end: number }> {
  const out: Array<{ word: string; start: number; end: number }> = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    out.push({ word: fold(match[0]), start: match.index, end: match.index + match[0].length });
  }
  return out;
}

const fold = (word: string): string =>
  word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

export function compileNlp(section: unknown): CompiledNlp | null {
  if (!isRecord(section)) return null;
  const threshold = typeof section.threshold === 'number' && section.threshold >= 0 && section.threshold <= 1 ? section.threshold : DEFAULT_THRESHOLD;
  const intents: CompiledIntent[] = [];
  for (const item of Array.isArray(section.intents) ? section.intents : []) {
    if (!isRecord(item) || typeof item.name !== 'string' || item.name === '') continue;
    const examples = Array.isArray(item.examples) ? item.examples.filter((e): e is string => typeof e === 'string') : [];
    intents.push({ name: item.name, examples });
  }
  const entities: CompiledEntity[] = [];
  for (const item of Array.isArray(section.entities) ? section.entities : []) {
    if (!isRecord(item) || typeof item.name !== 'string' || item.name === '') continue;
    if (typeof item.regex === 'string') entities.push({ name: item.name, kind: 'regex', regex: compileAuthorRegex(item.regex, { caseSensitive: true }).regex });
    else if (isRecord(item.values)) entities.push({ name: item.name, kind: 'values', spellings: spellingsOf(item.values) });
  }
  return {
    language: typeof section.language === 'string' && section.language !== '' ? section.language : DEFAULT_LANGUAGE,
    threshold,
    aiFallback: section.aiFallback === true,
    intents,
    entities,
  };
}

function spellingsOf(values: Record<string, unknown>): SpellingNode {
  const root: SpellingNode = { next: new Map() };
  for (const [value, spellings] of Object.entries(values)) {
    // The canonical value is a spelling of itself.
    const all = [value, ...(Array.isArray(spellings) ? spellings.filter((s): s is string => typeof s === 'string') : [])];
    for (const spelling of all) {
      const words = normalizedWords(spelling);
      if (words.length === 0) continue;
      let node = root;
      for (const { word } of words) {
        let child = node.next.get(word);
        if (child === undefined) node.next.set(word, (child = { next: new Map() }));
        node = child;
      }
      node.value ??= value;
    }
  }
  return root;
}

export function intentNamed(nlp: CompiledNlp, name: string): CompiledIntent | undefined {
  const key = name.toLowerCase();
  return nlp.intents.find((i) => i.name.toLowerCase() === key);
}

export function entityNamed(nlp: CompiledNlp, name: string): CompiledEntity | undefined {
  const key = name.toLowerCase();
  return nlp.entities.find((e) => e.name.toLowerCase() === key);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Understood {
  /** the intent that counts (reached the threshold, or the AI chose it); null when none did */
  intent: string | null;
  /** its score, 'ai' when the AI fallback chose it */
  score: number | 'ai' | null;
  /** the best-scored intent of the model, whether or not it reached the threshold */
  best: { intent: string; score: number } | null;
}

/** Whether an intent trigger for `name` (at `minScore`, else the bot's threshold) fires. */
export function intentFires(understood: Understood | null, name: string, minScore: number | null, nlp: CompiledNlp | null): boolean {
  if (understood === null || nlp === null) return false;
  const key = name.toLowerCase();
  if (understood.score === 'ai') return understood.intent?.toLowerCase() === key;
  const best = understood.best;
  return best !== null && best.intent.toLowerCase() === key && best.score >= (minScore ?? nlp.threshold);
}
