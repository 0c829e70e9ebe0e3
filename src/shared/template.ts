// Text templates of bot files (bot-format.md "Actions"): `{{name}}` is the variable `name` (empty
// when unset) and `{{name|default}}` falls back to `default` when the variable is unset or empty.
// `[[name]]` is tagged text for POST /bot/clone and is deliberately left untouched here.

const PLACEHOLDER = /\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g;

export function renderTemplate(text: string, variables: Readonly<Record<string, string | null | undefined>>): string {
  // Most texts have no placeholder at all: skip the regex work on the turn's hot path.
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole: string, rawName: string, fallback: string | undefined) => {
    const name = rawName.trim();
    if (name === '') return whole;
    // hasOwn: a variable called "constructor" must not read Object.prototype.
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value !== undefined && value !== null && value !== '') return value;
    return fallback === undefined ? '' : fallback.trim();
  });
}
