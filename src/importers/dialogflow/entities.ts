// Dialogflow ES entities (entities/<name>.json and <name>_entries_<lang>.json) → nlp.entities:
// synonyms keep their canonical value, a regexp entity becomes one regex entity, @sys.number and
// @sys.email become regex entities; composite entries (`@other:alias`) are skipped.
import { regexProblem } from '../../engine/matching.js';
import type { ExportFiles } from '../model.js';
import { NameBook } from '../names.js';
import type { NlpEntity } from '../../engine/bot-file.js';
import type { ReportBuilder } from '../report.js';
import { listAt, objAt, textAt } from '../shared.js';

export interface ConvertedEntities {
  list: NlpEntity[];
  /** a Dialogflow entity type (`@query`, `@sys.number`) → the entity's name in the bot */
  byType: Map<string, string>;
  /** canonical values of a synonym entity, to add annotated spellings to */
  values: Map<string, Record<string, string[]>>;
  /** entity types found in annotations that have no Colloquy twin (reported once each) */
  missing: Set<string>;
  /** the entity names given so far (a system entity takes one on first use) */
  names: NameBook | null;
}

/** System entities with a faithful regex twin. */
const SYSTEM_REGEX: Record<string, { name: string; regex: string }> = {
  '@sys.number': { name: 'number', regex: '-?\\d+(?:[.,]\\d+)?' },
  '@sys.number-integer': { name: 'integer', regex: '-?\\d+' },
  '@sys.email': { name: 'email', regex: '[^\\s@]+@[^\\s@]+\\.[^\\s@]+' },
};

export function convertEntities(files: ExportFiles, language: string, report: ReportBuilder): ConvertedEntities {
  const names = new NameBook(report, 'entity');
  const result: ConvertedEntities = { list: [], byType: new Map(), values: new Map(), missing: new Set(), names: null };
  const definitions = [...files.entries()].filter(([path]) => /^entities\/[^/]+\.json$/.test(path) && !/_entries_[^/]+\.json$/.test(path)).sort(([a], [b]) => a.localeCompare(b));
  for (const [file, doc] of definitions) {
    const base = file.slice('entities/'.length, -'.json'.length);
    const definition = objAt(doc);
    const entriesFile = `entities/${base}_entries_${language}.json`;
    const entries = listAt(files.get(entriesFile)).map(objAt);
    const name = names.name(definition.name ?? base, `${file}: $.name`, base);
    if (definition.isRegexp === true) {
      const patterns = entries.map((e) => textAt(e.value)).filter((v): v is string => !!v);
      const regex = patterns.map((p) => `(?:${p})`).join('|');
      if (regex === '' || regexProblem(regex) !== null) {
        report.skip(`${entriesFile}: $`, `the regexp entity "${name}"`, 'its patterns are not ones Colloquy runs (linear-time patterns only)');
        continue;
      }
      result.list.push({ name, regex });
    } else {
      const values: Record<string, string[]> = {};
      entries.forEach((entry, i) => {
        const value = textAt(entry.value)?.trim();
        if (!value) return;
        if (value.startsWith('@')) {
          report.skip(`${entriesFile}: $[${i}]`, `the composite entry ${JSON.stringify(value.slice(0, 60))}`, 'composite entities are not carried: list their values by hand');
          return;
        }
        const spellings = listAt(entry.synonyms)
          .map(textAt)
          .filter((s): s is string => !!s && s.trim() !== '')
          .map((s) => s.trim());
        values[value] = [...new Set([value, ...spellings])];
      });
      result.list.push({ name, values });
      result.values.set(`@${base}`, values);
    }
    result.byType.set(`@${base}`, name);
  }
  result.names = names;
  return result;
}

/** The bot's entity for a Dialogflow type, a system one added on first use; null when there is none. */
export function entityFor(entities: ConvertedEntities, type: string): string | null {
  const known = entities.byType.get(type);
  if (known) return known;
  const system = SYSTEM_REGEX[type];
  if (!system || !entities.names) return null;
  const name = entities.names.name(system.name, '', system.name);
  entities.list.push({ name, regex: system.regex });
  entities.byType.set(type, name);
  return name;
}
