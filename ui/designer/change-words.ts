// A change between two versions in the designer's words (issue 37 "Versions read like a database
// dump"): "Interaction Greeting: text changed from “Hi” to “Hello”", "button Book a repair added".
// Pure: the server's diff (its JSON pointer, kind, before, after and the names it is in) in, one
// sentence out, always plain text (the page renders it as text, never as markup).

/** One change of GET …/diff: the server's JSON pointer, its kind, the values and the names it is in. */
export interface Change {
  Path: string;
  Kind: 'added' | 'removed' | 'changed';
  Before?: unknown;
  After?: unknown;
  Behaviour?: string;
  Interaction?: string;
}

type Value = Record<string, unknown>;
const isObject = (v: unknown): v is Value => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const quoted = (v: unknown) => `“${cut(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}”`;

const FIELD_WORDS: Record<string, string> = {
  text: 'text',
  texts: 'text variations',
  question: 'question',
  variable: 'variable',
  url: 'address',
  start: 'start',
  fallback: 'fallback',
  enableUserChat: '“user may type here”',
  name: 'name',
  triggers: 'triggers',
  expect: 'expected answer',
  buttons: 'buttons',
  cards: 'cards',
  mode: 'mode',
};
const fieldWord = (field: string) => FIELD_WORDS[field] ?? field;
const yesNo = (v: unknown) => (v === true ? 'on' : v === false || v === undefined ? 'off' : quoted(v));

/** What an action is, in a few words: `text “Hello”`, `buttons “What next?”`, `goTo`. */
export function actionWords(action: unknown): string {
  if (!isObject(action)) return 'an action';
  const type = typeof action.type === 'string' ? action.type : 'action';
  const said = action.text ?? action.question ?? action.title;
  return typeof said === 'string' && said !== '' ? `${type} ${quoted(said)}` : type;
}

/** The fields of two objects that differ, each as "x changed from a to b" (booleans: on/off). */
function fieldChanges(before: Value, after: Value, skip: string[] = []): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.includes(k) && k !== 'id');
  const out: string[] = [];
  for (const key of keys) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (key === 'buttons' && Array.isArray(a) && Array.isArray(b)) out.push(...buttonChanges(a, b));
    else if (typeof a === 'boolean' || typeof b === 'boolean') out.push(`${fieldWord(key)} turned ${yesNo(b)}`);
    else if (a === undefined) out.push(`${fieldWord(key)} ${quoted(b)} added`);
    else if (b === undefined) out.push(`${fieldWord(key)} removed`);
    else if (typeof a === 'string' && typeof b === 'string') out.push(`${fieldWord(key)} changed from ${quoted(a)} to ${quoted(b)}`);
    else out.push(`${fieldWord(key)} changed`);
  }
  return out;
}

/** Buttons matched by their label: added, removed, or changed (what they do). */
function buttonChanges(before: unknown[], after: unknown[]): string[] {
  const label = (b: unknown) => (isObject(b) && typeof b.text === 'string' ? b.text : '');
  const old = new Map(before.map((b) => [label(b), b]));
  const now = new Set(after.map(label));
  const out: string[] = [];
  for (const b of after) {
    const was = old.get(label(b));
    if (was === undefined) out.push(`button ${quoted(label(b))} added`);
    else if (JSON.stringify({ ...(was as Value), id: 0 }) !== JSON.stringify({ ...(b as Value), id: 0 })) out.push(`button ${quoted(label(b))} changed`);
  }
  for (const b of before) if (!now.has(label(b))) out.push(`button ${quoted(label(b))} removed`);
  return out.length > 0 ? out : ['buttons reordered'];
}

/** Where the change is: "Interaction “Greeting” (Main)", "Behaviour “Orders”", "Variable “tone”". */
function placeOf(change: Change, segments: string[]): string {
  const thing = change.Kind === 'removed' ? change.Before : change.After;
  const named = isObject(thing) && typeof thing.name === 'string' ? thing.name : '';
  if (segments[0] === 'variables') return `Variable ${quoted(segments[1] ?? '')}`;
  if (segments[0] === 'triggers') return 'The bot’s triggers';
  if (segments[0] === 'nlp') return 'Intents and entities';
  if (segments.length === 2) return `Behaviour ${quoted(named)}`;
  const interaction = segments.length === 4 ? named : (change.Interaction ?? '');
  return `Interaction ${quoted(interaction)}${change.Behaviour ? ` (${change.Behaviour})` : ''}`;
}

export function changeWords(change: Change): string {
  const segments = change.Path.split('/')
    .slice(1)
    .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const place = placeOf(change, segments);
  const isAction = segments[4] === 'actions';
  if (segments[0] === 'variables') {
    if (change.Kind === 'added') return `${place} added: ${quoted(change.After)}`;
    if (change.Kind === 'removed') return `${place} removed`;
    return `${place} changed from ${quoted(change.Before)} to ${quoted(change.After)}`;
  }
  if (!isAction) {
    if (change.Kind !== 'changed' || !isObject(change.Before) || !isObject(change.After)) return `${place} ${change.Kind}`;
    const fields = fieldChanges(change.Before, change.After, ['interactions', 'actions']);
    return fields.length > 0 ? `${place}: ${fields.join('; ')}` : `${place} changed`;
  }
  if (change.Kind === 'added') return `${place}: ${actionWords(change.After)} added`;
  if (change.Kind === 'removed') return `${place}: ${actionWords(change.Before)} removed`;
  const before = isObject(change.Before) ? change.Before : {};
  const after = isObject(change.After) ? change.After : {};
  if (before.type !== after.type) return `${place}: ${actionWords(before)} replaced by ${actionWords(after)}`;
  const fields = fieldChanges(before, after, ['type']);
  return `${place}: ${fields.length > 0 ? fields.join('; ') : `${actionWords(after)} changed`}`;
}
