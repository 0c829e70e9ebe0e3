// What changed between two versions of a bot's content (docs/designer.md "Diff"), at the level a
// person reviews a publish: variables one by one, triggers and the nlp section as wholes,
// behaviours and interactions matched by name (case-insensitive, as at run time), and the actions
// of an interaction matched in order (a longest common subsequence, so inserting one action does
// not show every later one as changed).
//
// `Path` is a JSON pointer (RFC 6901) into a bot file: into the `to` file for `added` and
// `changed`, into the `from` file for `removed`.
import type { Action, Behaviour, Interaction } from '../engine/bot-file.js';
import type { BotContent } from './model.js';

export interface BotChange {
  Path: string;
  Kind: 'added' | 'removed' | 'changed';
  Before?: unknown;
  After?: unknown;
  /** the behaviour (and interaction) the change is in, by name: what a person reads (issue 37) */
  Behaviour?: string;
  Interaction?: string;
}

/**
 * Above this many action pairs in one interaction the actions are compared position by position:
 * the common-subsequence table grows with their product (docs/limits.md).
 */
export const MAX_ACTION_PAIRS = 40_000;

export function diffContents(from: BotContent, to: BotContent): BotChange[] {
  const changes: BotChange[] = [];
  const [fromVariables, toVariables] = [from.variables ?? {}, to.variables ?? {}];
  if (isRecord(fromVariables) && isRecord(toVariables)) diffVariables(fromVariables, toVariables, changes);
  else diffWhole('/variables', fromVariables, toVariables, changes);
  diffWhole('/triggers', from.triggers ?? [], to.triggers ?? [], changes);
  diffNamed('/behaviours', from.behaviours, to.behaviours, changes, diffBehaviour);
  diffWhole('/nlp', from.nlp, to.nlp, changes);
  return changes;
}

function diffVariables(from: Record<string, unknown>, to: Record<string, unknown>, changes: BotChange[]): void {
  for (const [name, value] of Object.entries(to)) {
    const path = `/variables/${escapePointer(name)}`;
    if (!Object.hasOwn(from, name)) changes.push({ Path: path, Kind: 'added', After: value });
    else if (!same(from[name], value)) changes.push({ Path: path, Kind: 'changed', Before: from[name], After: value });
  }
  for (const [name, value] of Object.entries(from)) {
    if (!Object.hasOwn(to, name)) changes.push({ Path: `/variables/${escapePointer(name)}`, Kind: 'removed', Before: value });
  }
}

function diffWhole(path: string, from: unknown, to: unknown, changes: BotChange[]): void {
  if (from === undefined && to !== undefined) changes.push({ Path: path, Kind: 'added', After: to });
  else if (from !== undefined && to === undefined) changes.push({ Path: path, Kind: 'removed', Before: from });
  else if (!same(from, to)) changes.push({ Path: path, Kind: 'changed', Before: from, After: to });
}

/** Items matched by name: added, removed, or compared with `inner` at their paths in each file. */
function diffNamed<T extends { name: string }>(
  base: string,
  from: T[],
  to: T[],
  changes: BotChange[],
  inner: (fromPath: string, toPath: string, before: T, after: T, changes: BotChange[]) => void,
): void {
  // A draft kept with problems may have anything here (docs/designer.md "Saving"): compared whole.
  if (!isNamedList(from) || !isNamedList(to)) return diffWhole(base, from, to, changes);
  const fromByName = new Map(from.map((item, i) => [item.name.toLowerCase(), i]));
  const toNames = new Set(to.map((item) => item.name.toLowerCase()));
  to.forEach((item, i) => {
    const at = fromByName.get(item.name.toLowerCase());
    if (at === undefined) changes.push({ Path: `${base}/${i}`, Kind: 'added', After: item });
    else inner(`${base}/${at}`, `${base}/${i}`, from[at], item, changes);
  });
  from.forEach((item, i) => {
    if (!toNames.has(item.name.toLowerCase())) changes.push({ Path: `${base}/${i}`, Kind: 'removed', Before: item });
  });
}

function diffBehaviour(fromPath: string, toPath: string, before: Behaviour, after: Behaviour, changes: BotChange[]): void {
  const { interactions: beforeInteractions, ...beforeOwn } = before;
  const { interactions: afterInteractions, ...afterOwn } = after;
  if (!same(beforeOwn, afterOwn)) changes.push({ Path: toPath, Kind: 'changed', Before: beforeOwn, After: afterOwn, Behaviour: after.name });
  // Removed interactions are named by their place in the `from` file.
  const local: BotChange[] = [];
  diffNamed('', beforeInteractions, afterInteractions, local, diffInteraction);
  for (const change of local) changes.push({ ...change, Path: `${change.Kind === 'removed' ? fromPath : toPath}/interactions${change.Path}`, Behaviour: after.name });
}

function diffInteraction(fromPath: string, toPath: string, before: Interaction, after: Interaction, changes: BotChange[]): void {
  const { actions: beforeActions, ...beforeOwn } = before;
  const { actions: afterActions, ...afterOwn } = after;
  if (!same(beforeOwn, afterOwn)) changes.push({ Path: toPath, Kind: 'changed', Before: beforeOwn, After: afterOwn, Interaction: after.name });
  if (!Array.isArray(beforeActions) || !Array.isArray(afterActions)) {
    const whole: BotChange[] = [];
    diffWhole(`${toPath}/actions`, beforeActions, afterActions, whole);
    for (const change of whole) changes.push({ ...change, Interaction: after.name });
    return;
  }
  for (const change of diffActions(beforeActions, afterActions)) {
    const path = change.kind === 'removed' ? `${fromPath}/actions/${change.from}` : `${toPath}/actions/${change.to}`;
    changes.push({
      Path: path,
      Kind: change.kind,
      Interaction: after.name,
      ...(change.kind !== 'added' ? { Before: beforeActions[change.from!] } : {}),
      ...(change.kind !== 'removed' ? { After: afterActions[change.to!] } : {}),
    });
  }
}

type ActionChange = { kind: BotChange['Kind']; from?: number; to?: number };

/** Actions kept in order are unchanged; between two kept ones, removed and added actions pair up as changed. */
function diffActions(from: Action[], to: Action[]): ActionChange[] {
  const a = from.map(canonical);
  const b = to.map(canonical);
  const kept = a.length * b.length <= MAX_ACTION_PAIRS ? commonSubsequence(a, b) : positional(a, b);
  const changes: ActionChange[] = [];
  let i = 0;
  let j = 0;
  for (const [keptI, keptJ] of [...kept, [a.length, b.length] as const]) {
    const removed = range(i, keptI);
    const added = range(j, keptJ);
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) changes.push({ kind: 'changed', from: removed[k], to: added[k] });
    for (const r of removed.slice(paired)) changes.push({ kind: 'removed', from: r });
    for (const t of added.slice(paired)) changes.push({ kind: 'added', to: t });
    i = keptI + 1;
    j = keptJ + 1;
  }
  return changes;
}

/** Index pairs of a longest common subsequence, in order. */
function commonSubsequence(a: string[], b: string[]): Array<readonly [number, number]> {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const pairs: Array<readonly [number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) pairs.push([i++, j++] as const);
    else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) i++;
    else j++;
  }
  return pairs;
}

function positional(a: string[], b: string[]): Array<readonly [number, number]> {
  const pairs: Array<readonly [number, number]> = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] === b[i]) pairs.push([i, i] as const);
  return pairs;
}

const range = (start: number, end: number) => Array.from({ length: Math.max(0, end - start) }, (_x, k) => start + k);

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A list of behaviours or interactions as a valid file has them: objects with a name. */
const isNamedList = (v: unknown): v is { name: string }[] => Array.isArray(v) && v.every((item) => isRecord(item) && typeof item.name === 'string');

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** JSON with object keys sorted: two values that differ only in key order are the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}
