// Entities found in a user text (understanding.md): a synonym entity by its spellings compared as
// normalized words, a regex entity by its pattern on RE2 (linear time, never JavaScript's
// backtracking engine). When a text names the same entity twice, the first occurrence counts.
import { normalizedWords, type CompiledEntity, type CompiledNlp } from './compiled-nlp.js';

export interface FoundEntity {
  name: string;
  /** the canonical value; for a regex entity the matched text */
  value: string;
  /** the text as the user wrote it */
  text: string;
}

/** Every entity of the bot found in `text`, in the order the bot file declares them. */
export function findEntities(nlp: CompiledNlp, text: string): FoundEntity[] {
  const words = nlp.entities.some((e) => e.kind === 'values') ? normalizedWords(text) : [];
  const out: FoundEntity[] = [];
  for (const entity of nlp.entities) {
    const found = findOne(entity, text, words);
    if (found !== null) out.push(found);
  }
  return out;
}

export function findEntity(entity: CompiledEntity, text: string): FoundEntity | null {
  return findOne(entity, text, entity.kind === 'values' ? normalizedWords(text) : []);
}

type Word = ReturnType<typeof normalizedWords>[number];

function findOne(entity: CompiledEntity, text: string, words: readonly Word[]): FoundEntity | null {
  if (entity.kind === 'regex') {
    if (entity.regex === null) return null;
    const matcher = entity.regex.matcher(text);
    if (!matcher.find()) return null;
    const matched = matcher.group() ?? '';
    return { name: entity.name, value: matched, text: matched };
  }
  // Earliest position first; at one position the longest spelling: walk the trie as far as the
  // words go and keep the last spelling that ended on the way.
  for (let at = 0; at < words.length; at++) {
    let node = entity.spellings;
    let found: { value: string; last: number } | null = null;
    for (let i = at; i < words.length; i++) {
      const next = node.next.get(words[i].word);
      if (next === undefined) break;
      node = next;
      if (node.value !== undefined) found = { value: node.value, last: i };
    }
    if (found !== null) return { name: entity.name, value: found.value, text: text.slice(words[at].start, words[found.last].end) };
  }
  return null;
}
