// Text templates of bot files (bot-format.md "Actions"): `{{name}}` is the variable `name` (empty
// when unset) and `{{name|default}}` falls back to `default` when the variable is unset or empty.
// `[[name]]` is tagged text for POST /bot/clone and is deliberately left untouched here.
//
// `{{secret.NAME}}` is never a variable (agents.md "Secrets"): in a text it renders as nothing; in
// an outbound request (callApi, an agent's http tool) it becomes a *slot*, two noncharacters around
// the name, that only the request's sender fills in (secrets/substitution.ts), after checking the
// request's host. Those two noncharacters are removed from everything else the template renders
// (the author's text and every variable's value), so a value a user typed can neither be read as a
// slot nor complete one: only a placeholder the bot's author wrote asks for a secret.

const PLACEHOLDER = /\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g;

/** The two marks around a secret slot's name: Unicode noncharacters, reserved for internal use. */
export const SLOT_OPEN = '\uFDD0';
export const SLOT_CLOSE = '\uFDD1';
const SLOT_MARKS = /[\uFDD0\uFDD1]/g;
/** A filled-in slot, the secret's name captured (for `replace` and `matchAll`, which start afresh). */
export const SECRET_SLOT = /\uFDD0([A-Za-z0-9_]{1,64})\uFDD1/g;
/** The secret names the API accepts (PUT /bots/{APIKey}/secrets/{NAME}). */
export const SECRET_NAME = /^[A-Za-z0-9_]{1,64}$/;
const SECRET_PREFIX = 'secret.';

export interface TemplateOptions {
  /** true for an outbound request: `{{secret.NAME}}` becomes a slot the sender fills */
  secretSlots?: boolean;
}

const withoutSlotMarks = (text: string) => (text.includes(SLOT_OPEN) || text.includes(SLOT_CLOSE) ? text.replace(SLOT_MARKS, '') : text);

export function renderTemplate(text: string, variables: Readonly<Record<string, string | null | undefined>>, options: TemplateOptions = {}): string {
  const slots = options.secretSlots === true;
  const source = slots ? withoutSlotMarks(text) : text;
  // Most texts have no placeholder at all: skip the regex work on the turn's hot path.
  if (!source.includes('{{')) return source;
  return source.replace(PLACEHOLDER, (whole: string, rawName: string, fallback: string | undefined) => {
    const name = rawName.trim();
    if (name === '') return whole;
    if (name.startsWith(SECRET_PREFIX)) {
      const secret = name.slice(SECRET_PREFIX.length);
      return slots && SECRET_NAME.test(secret) ? `${SLOT_OPEN}${secret}${SLOT_CLOSE}` : '';
    }
    // hasOwn: a variable called "constructor" must not read Object.prototype.
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value !== undefined && value !== null && value !== '') return slots ? withoutSlotMarks(value) : value;
    return fallback === undefined ? '' : slots ? withoutSlotMarks(fallback.trim()) : fallback.trim();
  });
}
