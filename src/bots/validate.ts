// Validation of a bot file on save: the JSON Schema first (every error, via ajv allErrors), then the
// semantic rules (rules.ts). Never throws on a bad document, however malformed: garbage in gives
// problems out. It does throw if the schema itself cannot be compiled: that is a server bug.

import type { BotFile } from '../engine/bot-file.js';
import { actionRegistry } from '../engine/registry.js';
import { validatorsFor, type ErrorObject } from './compiled.js';
import { schemaProblems, toJsonPath, type Problem } from './problems.js';
import { semanticProblems } from './rules.js';
import type { ActionRegistry } from './schema.js';
import { forEachAction, type Segment } from './walk.js';

export type { Problem } from './problems.js';
export type ValidationResult = { ok: true; bot: BotFile } | { ok: false; problems: Problem[] };

/** Deeper documents are refused before ajv, whose generated code recurses once per level. */
export const MAX_DEPTH = 200;
/** A file of pure junk can have millions of errors; nobody reads past this many. */
export const MAX_PROBLEMS = 1000;
/** Schema errors collected before giving up on the rest ('if' errors and alternatives shrink them). */
const ERROR_BUDGET = 4 * MAX_PROBLEMS;

const pointer = (path: Segment[]): string => path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * The JSON Schema part of validateBotFile alone: the file's own shape, then each action of every
 * operation list (see compiled.ts for why not all at once).
 */
export function schemaCheck(doc: unknown, registry: ActionRegistry): { problems: Problem[]; truncated: boolean } {
  const v = validatorsFor(registry);
  const problems: Problem[] = [];
  let errors = 0;
  let truncated = false;
  const take = (found: ErrorObject[] | null | undefined, at: string) => {
    if (!found) return;
    // One value can have millions of errors (a list of 400k broken buttons): read a budget's worth.
    if (found.length > ERROR_BUDGET - errors) truncated = true;
    found = found.slice(0, Math.max(0, ERROR_BUDGET - errors));
    errors += found.length;
    // Paths of errors are relative to the value validated: make them relative to the document.
    const located = found.map((e) => ({ ...e, instancePath: at + e.instancePath }));
    for (const p of schemaProblems(located, doc, v.branch)) problems.push(p);
  };
  if (!v.file(doc)) take(v.file.errors, '');
  if (!v.shallow) return { problems, truncated };
  forEachAction(doc, registry, v.schema, (action, path, _scope, embedded) => {
    if (embedded || truncated) return; // embedded actions were checked with their parent
    if (errors >= ERROR_BUDGET) truncated = true;
    else if (!v.action(action)) take(v.action.errors, pointer(path));
  });
  return { problems, truncated };
}

/** Path of the first value nested deeper than `limit`, or null; iterative so junk cannot overflow it. */
function tooDeep(doc: unknown, limit: number): string | null {
  // Entries link to their parent instead of carrying a path: a path is only built for the answer.
  type Entry = { node: unknown; depth: number; key: Segment; parent: Entry | null };
  const stack: Entry[] = [{ node: doc, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { node, depth } = entry;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) {
      const path: Segment[] = [];
      for (let e: Entry | null = entry; e?.parent; e = e.parent) path.unshift(e.key);
      return toJsonPath(path);
    }
    if (Array.isArray(node)) node.forEach((v, i) => stack.push({ node: v, depth: depth + 1, key: i, parent: entry }));
    else for (const [k, v] of Object.entries(node)) stack.push({ node: v, depth: depth + 1, key: k, parent: entry });
  }
  return null;
}

export function validateBotFile(doc: unknown, registry: ActionRegistry = actionRegistry): ValidationResult {
  validatorsFor(registry); // a schema that does not compile is a server bug: let it throw
  const deep = tooDeep(doc, MAX_DEPTH);
  if (deep) return { ok: false, problems: [{ Path: deep, Message: `nested more than ${MAX_DEPTH} levels deep` }] };

  let problems: Problem[];
  let truncated = false;
  try {
    ({ problems, truncated } = schemaCheck(doc, registry));
    // A semantic problem where the schema already complained is the same fault seen twice.
    const schemaPaths = new Set(problems.map((p) => p.Path));
    const seen = new Set(problems.map((p) => `${p.Path}\n${p.Message}`));
    for (const raw of semanticProblems(doc, registry, validatorsFor(registry).schema, schemaPaths)) {
      const p = { Path: toJsonPath(raw.path), Message: raw.message };
      const key = `${p.Path}\n${p.Message}`;
      if (schemaPaths.has(p.Path) || seen.has(key)) continue;
      seen.add(key);
      problems.push(p);
    }
  } catch (err) {
    // Defensive: a document must never turn into a 500. Should not happen after the depth check.
    return { ok: false, problems: [{ Path: '$', Message: `could not be validated: ${(err as Error).message}` }] };
  }

  if (problems.length > MAX_PROBLEMS || truncated) {
    const more = truncated ? 'more problems' : `${problems.length - MAX_PROBLEMS} more problems`;
    problems = [...problems.slice(0, MAX_PROBLEMS), { Path: '$', Message: `too many problems: ${more} not listed` }];
  }
  if (problems.length > 0) return { ok: false, problems };
  // `version` is the server's to set: a client echoing it back must not be able to store it.
  const { version: _ignored, ...bot } = doc as BotFile;
  return { ok: true, bot: bot as BotFile };
}
