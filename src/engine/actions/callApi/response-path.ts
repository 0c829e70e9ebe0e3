// `responsePath` of callApi: a dotted path with array indexes (`data.items[0].name`) into a JSON body.
import { mayHoldSurrogates, wellFormed } from '../../../shared/well-formed.js';

/** The picked value as a variable string (objects and arrays as JSON text), or null when absent. */
export function pickFromJson(body: string, path: string): string | null {
  let value: unknown;
  try {
    // a lone surrogate escape in the answer becomes U+FFFD, as for any text that comes in
    value = mayHoldSurrogates(body) ? wellFormed(JSON.parse(body)) : JSON.parse(body);
  } catch {
    return null;
  }
  for (const key of pathKeys(path)) {
    if (value === null || typeof value !== 'object') return null;
    if (!Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `data.items[0].name` → ['data', 'items', '0', 'name'] (array indexes work as object keys). */
export function pathKeys(path: string): string[] {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}
