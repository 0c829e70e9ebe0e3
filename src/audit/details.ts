// What an audit entry's Details may hold (governance.md: never a secret, a password, a token or a
// message text). Callers pick what they put in, and this is the net under them: a member whose
// name says it could hold one of those is dropped whatever its value, texts are cut short, lists
// bounded, and nothing nested is kept.
import crypto from 'node:crypto';
import type { AuditValue } from './model.js';

/** Member names never kept, whatever the value: credentials and what people wrote. */
const SENSITIVE = /secret|password|passwd|token|apikey|api_key|credential|authorization|cookie|text|message|body|content|key$/i;
/** Member names kept although they match SENSITIVE: names of things, never their values. */
const NAMES_ONLY = new Set(['Fields', 'SecretNames']);
const MAX_MEMBERS = 20;
const MAX_TEXT = 200;
const MAX_LIST = 50;

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

export function safeDetails(details: Record<string, unknown>): Record<string, AuditValue> {
  const out: Record<string, AuditValue> = {};
  for (const [name, value] of Object.entries(details).slice(0, MAX_MEMBERS)) {
    if (SENSITIVE.test(name) && !NAMES_ONLY.has(name)) continue;
    const kept = safeValue(value);
    if (kept !== undefined) out[name] = kept;
  }
  return out;
}

function safeValue(value: unknown): AuditValue | undefined {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return cut(value);
  if (Array.isArray(value))
    return value
      .filter((item): item is string => typeof item === 'string')
      .slice(0, MAX_LIST)
      .map(cut);
  return undefined;
}

/**
 * A conversation's user as entries name it: a digest of the bot and the user id, never the id
 * itself, so that a forgotten user leaves no id in the log (governance.md: the log outlives a
 * forget) while an admin who knows the id can still find its entries (docs/governance.md).
 */
export const userRef = (botId: string, userId: string) => crypto.createHash('sha256').update(`${botId}\n${userId}`).digest('hex').slice(0, 16);
