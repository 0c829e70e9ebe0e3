// Reading a bot document from a request body or a file: JSON, or YAML for people who write bots
// by hand. Only syntax and the bounds of bounds.ts are checked here; validateBotFile says what is
// wrong with the content.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Problem } from './problems.js';
import { wellFormed } from '../shared/well-formed.js';
import { BOT_FILE_LIMITS, limitHit, scanBotFileText, type LimitHit } from './bounds.js';

/** Unparsable text, or a file over a bound. Carries the shape of a validation failure so the server maps both alike. */
export class BotParseError extends Error {
  readonly code = 'INVALID_BOT' as const;
  readonly problems: Problem[];

  constructor(
    message: string,
    /** the bound the file went over, when that is why */
    readonly limit?: LimitHit,
  ) {
    super(message);
    this.name = 'BotParseError';
    this.problems = [{ Path: '$', Message: message }];
  }
}

/** A JSON text the server does not parse on the request thread (too large): read.ts parses it. */
export class UnparsedJson {
  // private: the HTTP layer's checks that walk a parsed body (members, NUL) see nothing to walk
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
}

/**
 * What the HTTP layer answers itself for a body it parses (server.ts), said here for a body it left
 * unparsed: malformed JSON is INVALID_JSON, a NUL INVALID_REQUEST (PostgreSQL text cannot hold one).
 */
export class BotRequestError extends Error {
  constructor(
    readonly code: 'INVALID_JSON' | 'INVALID_REQUEST',
    message: string,
  ) {
    super(message);
  }
}

const NUL_REFUSED = 'Text may not contain NUL characters.';
const firstLine = (message: string): string => message.split('\n')[0]!.trim();
const overLimit = (hit: LimitHit) => new BotParseError(hit.message, hit);

/** Whether `text` is read as YAML: when the content type says so or when it does not start with `{` (JSON bot files always do). */
export const isYamlText = (text: string, contentType?: string): boolean => /yaml/i.test(contentType ?? '') || !text.trimStart().startsWith('{');

/**
 * The document in `raw` (not yet validated). Already-parsed values (a body the HTTP layer decoded)
 * pass through, bounded; bytes are read as UTF-8. YAML is a superset of JSON, so reading JSON
 * text as YAML is safe.
 */
export function parseBotDocument(raw: string | object, contentType?: string): unknown {
  if (raw instanceof Uint8Array) raw = new TextDecoder('utf-8', { fatal: false }).decode(raw);
  if (raw instanceof UnparsedJson) return parseJsonBody(raw.text);
  if (typeof raw !== 'string') return boundParsed(raw);
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new BotParseError('the document is empty');
  const hit = scanBotFileText(text);
  if (hit) throw overLimit(hit);
  const yaml = isYamlText(text, contentType);
  let document: unknown;
  try {
    // a lone surrogate escape becomes U+FFFD, as in every request (shared/well-formed.ts)
    document = wellFormed(yaml ? parseYaml(text) : JSON.parse(text));
  } catch (err) {
    const message = err instanceof Error ? firstLine(err.message) : String(err);
    throw new BotParseError(`${yaml ? 'invalid YAML' : 'invalid JSON'}: ${message}`);
  }
  return boundParsed(document);
}

/**
 * A JSON body as the HTTP layer's JSON parser reads one (server.ts): malformed is INVALID_JSON,
 * not INVALID_BOT; `__proto__` members and `constructor.prototype` are removed; lone surrogates
 * become U+FFFD.
 */
function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new BotParseError('the document is empty');
  const hit = scanBotFileText(text);
  if (hit) throw overLimit(hit);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new BotRequestError('INVALID_JSON', 'The request body is not valid JSON.');
  }
  return boundParsed(wellFormed(document), { removePoisoning: true });
}

/**
 * YAML with `uniqueKeys` off (its check compares every key with every other: quadratic) and
 * duplicates found here with a set per map, reported as the parser did: "Map keys must be
 * unique at line L, column C". maxAliasCount bounds alias expansion ("billion laughs").
 */
function parseYaml(text: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: true, logLevel: 'error', lineCounter });
  if (doc.errors.length > 0) throw doc.errors[0];
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) pending.push(...node.items);
    if (!isMap(node)) continue;
    const keys = new Set<unknown>();
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (isScalar(key)) {
        // the parser's own rule: scalar keys are equal when their values are (1 and "1" are not)
        if (keys.has(key.value) && key.value !== '<<') {
          const { line, col } = lineCounter.linePos(key.range?.[0] ?? 0);
          throw new Error(`Map keys must be unique at line ${line}, column ${col}:`);
        }
        keys.add(key.value);
      } else pending.push(key);
      pending.push(pair.value);
    }
  }
  return doc.toJS({ maxAliasCount: 100 });
}

/**
 * `value` checked against the depth and node bounds again, on the parsed document: the scanner
 * reads text, this reads what came of it (an already-parsed body; a plain scalar the scanner
 * took for something else). Also removes JSON prototype poisoning when asked.
 */
function boundParsed<T>(value: T, options: { removePoisoning?: boolean } = {}): T {
  const pending: { item: unknown; depth: number }[] = [{ item: value, depth: 1 }];
  let nodes = 0;
  while (pending.length > 0) {
    const { item, depth } = pending.pop()!;
    if (++nodes > BOT_FILE_LIMITS.nodes) throw overLimit(limitHit('BotFileNodes'));
    if (typeof item === 'string' && item.includes('\u0000')) throw new BotRequestError('INVALID_REQUEST', NUL_REFUSED);
    if (item === null || typeof item !== 'object') continue;
    if (depth > BOT_FILE_LIMITS.depth) throw overLimit(limitHit('BotFileDepth'));
    const record = item as Record<string, unknown>;
    if (options.removePoisoning && !Array.isArray(item)) {
      // biome-ignore lint/suspicious/noProto: deletes an own "__proto__" key of parsed input (prototype poisoning); the accessor is never used
      if (Object.hasOwn(record, '__proto__')) delete record.__proto__;
      const ctor = Object.hasOwn(record, 'constructor') ? record.constructor : undefined;
      if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) Reflect.deleteProperty(record, 'constructor');
    }
    if (!Array.isArray(item) && Object.keys(record).some((key) => key.includes('\u0000'))) throw new BotRequestError('INVALID_REQUEST', NUL_REFUSED);
    for (const child of Array.isArray(item) ? item : Object.values(record)) pending.push({ item: child, depth: depth + 1 });
  }
  return value;
}
