// Tagged text (bot-format.md "Actions"): `[[name]]` is replaced only by POST /bot/clone, with the
// values its `Destination.Variables` give. Unlike `{{name}}` templates, which the engine fills at
// run time, tags are filled once, in every string of the copied bot, wherever it sits (texts,
// button labels, URLs, names, trigger matches, variable values, settings, and the keys of
// objects such as the `variables` map), because a template bot is only useful when everything
// specific to one customer can be tagged.

const TAG = /\[\[([^[\]]+)\]\]/g;

/** Replaces every known `[[name]]` in one string; unknown tags stay as they are. */
export function fillTags(text: string, values: ReadonlyMap<string, string>): string {
  // Most strings have no tag: skip the regex work.
  if (!text.includes('[[')) return text;
  // One pass: a value that itself looks like a tag is not filled again.
  return text.replace(TAG, (whole: string, name: string) => values.get(name.trim()) ?? whole);
}

/** A deep copy of a JSON value with every string (and object key) filled. */
export function fillTagsDeep<T>(value: T, values: ReadonlyMap<string, string>): T {
  if (values.size === 0) return structuredClone(value);
  return fill(value, values) as T;
}

function fill(value: unknown, values: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return fillTags(value, values);
  if (Array.isArray(value)) return value.map((item) => fill(item, values));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a key "__proto__" (legal in JSON) must stay a key, not set the prototype.
      Object.defineProperty(out, fillTags(key, values), { value: fill(item, values), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/**
 * The tag values of `[{Name, Value}]`. Names match exactly (after trimming), as `{{name}}`
 * variables do; when a name is given twice the last value wins.
 */
export function tagValues(variables: ReadonlyArray<{ Name: string; Value: string }>): Map<string, string> {
  return new Map(variables.map((v) => [v.Name.trim(), v.Value]));
}
