// Reading a bot document from a request body or a file: JSON, or YAML for people who write bots
// by hand. Only syntax is checked here; validateBotFile says what is wrong with the content.

import { parse as parseYaml } from 'yaml';
import type { Problem } from './problems.js';
import { wellFormed } from '../shared/well-formed.js';

/** Unparsable text. Carries the same shape as a validation failure so the server maps both alike. */
export class BotParseError extends Error {
  readonly code = 'INVALID_BOT' as const;
  readonly problems: Problem[];

  constructor(message: string) {
    super(message);
    this.name = 'BotParseError';
    this.problems = [{ Path: '$', Message: message }];
  }
}

const firstLine = (message: string): string => message.split('\n')[0]!.trim();

/**
 * The document in `raw` (not yet validated). Already-parsed values (a body the HTTP layer decoded)
 * pass through; bytes are read as UTF-8. Text is YAML when the content type says so or when it does
 * not start with `{` (JSON bot files always do); YAML is a superset of JSON, so that is safe.
 */
export function parseBotDocument(raw: string | object, contentType?: string): unknown {
  if (raw instanceof Uint8Array) raw = new TextDecoder('utf-8', { fatal: false }).decode(raw);
  if (typeof raw !== 'string') return raw;
  const text = raw.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new BotParseError('the document is empty');
  const yaml = /yaml/i.test(contentType ?? '') || !text.trimStart().startsWith('{');
  try {
    // uniqueKeys: a key written twice is a mistake in a hand-written file, not "last one wins".
    // maxAliasCount bounds alias expansion (the "billion laughs" document).
    // a lone surrogate escape becomes U+FFFD, as in every request (shared/well-formed.ts)
    return wellFormed(yaml ? parseYaml(text, { uniqueKeys: true, maxAliasCount: 100, prettyErrors: true, logLevel: 'error' }) : JSON.parse(text));
  } catch (err) {
    const message = err instanceof Error ? firstLine(err.message) : String(err);
    throw new BotParseError(`${yaml ? 'invalid YAML' : 'invalid JSON'}: ${message}`);
  }
}
