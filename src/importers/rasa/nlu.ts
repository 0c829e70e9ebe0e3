// Rasa NLU training data (`nlu:` items) → nlp.intents and nlp.entities (importers.md "Rasa"):
// intents with their examples (entity annotations `[text](entity)` / `[text]{"entity": …}` read
// out, the annotated text added to the entity), synonyms and lookup tables as entity values,
// regexes as regex entities when Colloquy can run them in linear time.
import type { NlpEntity, NlpIntent } from '../../engine/bot-file.js';
import { regexProblem } from '../../engine/matching.js';
import { NameBook } from '../names.js';
import type { ReportBuilder } from '../report.js';
import { objAt, textAt } from '../shared.js';

export interface RasaNlu {
  intents: NlpIntent[];
  entities: NlpEntity[];
  /** Rasa intent name → the intent's name in the bot (only intents that were kept) */
  intentNames: Map<string, string>;
}

export interface NluSource {
  file: string;
  items: unknown[];
}

/** `[text](entity)`, `[text](entity:value)`, `[text]{"entity": "e", "value": "v"}`: bounded, linear. */
const ANNOTATION = /\[([^\]\n]{1,200})\](?:\(([^)\n]{1,200})\)|\{([^}\n]{1,500})\})/g;

export function convertNlu(sources: NluSource[], report: ReportBuilder): RasaNlu {
  const examplesOf = new Map<string, { path: string; examples: string[] }>();
  const values = new Map<string, Record<string, string[]>>();
  const regexes = new Map<string, { path: string; patterns: string[] }>();
  const synonyms: Array<{ path: string; value: string; spellings: string[] }> = [];
  const valuesOf = (entity: string) => values.get(entity) ?? values.set(entity, {}).get(entity)!;

  for (const { file, items } of sources) {
    items.forEach((raw, i) => {
      const item = objAt(raw);
      const path = `${file}: $.nlu[${i}]`;
      const lines = exampleLines(item.examples);
      if (textAt(item.intent)) {
        const intent = textAt(item.intent)!;
        const entry = examplesOf.get(intent) ?? examplesOf.set(intent, { path, examples: [] }).get(intent)!;
        for (const line of lines) entry.examples.push(readAnnotations(line, valuesOf));
      } else if (textAt(item.synonym)) synonyms.push({ path, value: textAt(item.synonym)!, spellings: lines });
      else if (textAt(item.lookup)) {
        const table = valuesOf(textAt(item.lookup)!);
        for (const line of lines) table[line] ??= [line];
      } else if (textAt(item.regex)) {
        const entry = regexes.get(textAt(item.regex)!) ?? regexes.set(textAt(item.regex)!, { path, patterns: [] }).get(textAt(item.regex)!)!;
        entry.patterns.push(...lines);
      } else report.skip(path, 'an NLU item', 'it is not an intent, synonym, lookup or regex');
    });
  }

  // A synonym maps spellings to a value whatever the entity: it joins every entity that has the value.
  for (const { path, value, spellings } of synonyms) {
    const holders = [...values.values()].filter((table) => value in table);
    if (holders.length === 0) report.skip(path, `the synonym "${value.slice(0, 60)}"`, 'no entity has this value in an annotation or a lookup table');
    for (const table of holders) table[value] = [...new Set([...table[value]!, ...spellings])];
  }

  const intentBook = new NameBook(report, 'intent');
  intentBook.name('none', '', 'none'); // reserved by the intent model
  const intents: NlpIntent[] = [];
  const intentNames = new Map<string, string>();
  for (const [rasaName, { path, examples }] of examplesOf) {
    const unique = [...new Set(examples.map((e) => e.trim()).filter((e) => e !== ''))];
    if (unique.length < 2) {
      report.skip(path, `the intent "${rasaName.slice(0, 60)}"`, `an intent needs at least two examples (it has ${unique.length})`);
      continue;
    }
    const name = intentBook.name(rasaName, `${path}.intent`, 'intent');
    intentNames.set(rasaName, name);
    intents.push({ name, examples: unique.map((e) => e.slice(0, 500)) });
  }

  const entityBook = new NameBook(report, 'entity');
  const entities: NlpEntity[] = [];
  for (const [name, table] of values) if (Object.keys(table).length > 0) entities.push({ name: entityBook.name(name, `nlu: entity ${name}`, 'entity'), values: table });
  for (const [name, { path, patterns }] of regexes) {
    const regex = patterns.map((p) => `(?:${p})`).join('|');
    if (regex === '' || regexProblem(regex) !== null) report.skip(path, `the regex "${name.slice(0, 60)}"`, 'its pattern is not one Colloquy runs (linear-time patterns only): write it again');
    else entities.push({ name: entityBook.name(name, `${path}.regex`, 'entity'), regex });
  }
  return { intents, entities, intentNames };
}

/** The `- example` lines of a block scalar (or a list, as some exports write them). */
function exampleLines(examples: unknown): string[] {
  const lines = Array.isArray(examples) ? examples.map((e) => textAt(e) ?? textAt(objAt(e).text) ?? '') : (textAt(examples) ?? '').split('\n');
  return lines.map((l) => l.trim().replace(/^-\s*/, '').trim()).filter((l) => l !== '');
}

/** The example's plain text; each annotated part becomes a spelling of its entity's value. */
function readAnnotations(line: string, valuesOf: (entity: string) => Record<string, string[]>): string {
  return line.replace(ANNOTATION, (_whole, text: string, paren: string | undefined, json: string | undefined) => {
    let entity: string | null = null;
    let value = text;
    if (paren !== undefined) [entity, value = text] = paren.split(':') as [string, string?];
    else {
      try {
        const parsed = objAt(JSON.parse(`{${json}}`));
        entity = textAt(parsed.entity);
        value = textAt(parsed.value) ?? text;
      } catch {
        entity = null;
      }
    }
    if (entity && entity.trim() !== '') {
      const table = valuesOf(entity.trim());
      const spellings = (table[value] ??= [value]);
      if (!spellings.some((s) => s.toLowerCase() === text.toLowerCase())) spellings.push(text);
    }
    return text;
  });
}
