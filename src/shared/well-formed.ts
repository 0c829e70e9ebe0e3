// What a lone UTF-16 surrogate becomes (docs/decisions.md "Requests"): U+FFFD, the replacement
// character, wherever text comes in (JSON bodies, query strings, path parameters, platform
// webhooks, bot files). JSON may carry one as an escape ("\ud800"); PostgreSQL's JSON refuses it
// and UTF-8 cannot encode it, so it never goes further than the edge. Replacing rather than
// refusing: a platform (Telegram, Meta) that sent a cut emoji would otherwise retry a message
// forever, and the rest of the text is still worth having.

// ES2024 methods that Node 20 has; the project's compiler target (ES2022) does not declare them.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

const fixed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());

/**
 * `value` with every string in it (object keys included) well-formed, changed in place. Walked
 * with a stack of its own, not recursion: a body may nest deeper than the call stack allows.
 */
export const wellFormed = <T>(value: T): T => mapStrings(value, fixed);

/** `value` with `fixed` applied to every string in it (object keys included), changed in place. */
export function mapStrings<T>(value: T, fixed: (text: string) => string): T {
  if (typeof value === 'string') return fixed(value) as T;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const container = pending.pop();
    if (container === null || typeof container !== 'object') continue;
    const entries: Record<string | number, unknown> = container as Record<string, unknown>;
    for (const key of Array.isArray(container) ? container.keys() : Object.keys(container)) {
      const item = typeof entries[key] === 'string' ? fixed(entries[key] as string) : entries[key];
      const name = typeof key === 'string' ? fixed(key) : key;
      // written only when changed: a parsed `__proto__` member must never meet the setter
      if (name !== key) {
        delete entries[key];
        entries[name] = item;
      } else if (item !== entries[key]) entries[key] = item;
      if (item !== null && typeof item === 'object') pending.push(item);
    }
  }
  return value;
}

/**
 * Whether a JSON text may hold a surrogate at all. Text decoded from UTF-8 holds none (the decoder
 * turns broken bytes into U+FFFD), so only a `\ud800`-style escape can make one: a text without
 * such an escape skips the walk, which is every ordinary chat turn. Linear: no quantifier.
 */
export const mayHoldSurrogates = (jsonText: string): boolean => /\\u[dD][89a-fA-F]/.test(jsonText);
