// The server's INVALID_BOT checks that are cheap to run in the page as one types, at the same
// JSONPaths the server names: required fields and empty texts (from the bot schema, so every action
// type is covered), lists too short, interaction and behaviour names (empty, taken, start marks),
// and goTo targets that do not exist. The server stays the judge: its problems from the last save
// are shown too, and a save or publish with any problem is refused there.
import { eachAction, same, type Action, type BotFile, type Problem } from './model';
import { actionSchema, jsonPath, resolve, type Schema } from './schema';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema of one value, with an action's or a button's own definition picked by its type. */
function shapeOf(root: Schema, schema: Schema, value: unknown): Schema {
  if (schema.$ref === '#/$defs/action' || schema.$ref === '#/$defs/buttonOrLink') return isObject(value) ? actionSchema(root, String(value.type)) : {};
  const s = resolve(root, schema);
  // a shape fixing its `type` (an agent's tool kinds) is the value's only when the types agree
  if (s.anyOf && isObject(value)) {
    const fits = (o: Schema) => o.type === 'object' && (o.properties?.type?.const === undefined || o.properties.type.const === value.type) && (o.required ?? []).every((k) => k in value);
    return s.anyOf.map((o) => resolve(root, o)).find(fits) ?? {};
  }
  return s;
}

function checkValue(root: Schema, schema: Schema, value: unknown, path: string, out: Problem[]): void {
  const s = shapeOf(root, schema, value);
  if (typeof value === 'string' && (s.minLength ?? 0) > 0 && value.trim() === '') out.push({ Path: path, Message: 'must not be empty' });
  if (Array.isArray(value)) {
    if (s.minItems && value.length < s.minItems) out.push({ Path: path, Message: `needs at least ${s.minItems}` });
    const items = s.items ?? (schema.$ref === '#/$defs/actions' ? { $ref: '#/$defs/action' } : undefined);
    if (items) value.forEach((item, i) => checkValue(root, items, item, jsonPath(path, i), out));
    return;
  }
  if (!isObject(value) || !s.properties) return;
  for (const key of s.required ?? []) if (!(key in value) && s.properties[key]) out.push({ Path: jsonPath(path, key), Message: 'is required' });
  const ways = (s.anyOf ?? []).filter((o) => o.required && !o.properties);
  if (ways.length > 0 && !ways.some((o) => o.required!.every((k) => k in value))) out.push({ Path: path, Message: `needs ${ways.map((o) => o.required!.join(' and ')).join(' or ')}` });
  for (const [key, field] of Object.entries(s.properties)) if (key in value) checkValue(root, field, value[key], jsonPath(path, key), out);
}

/** goTo actions under `actions` (at `path`) whose behaviour or interaction does not exist. */
function checkTargets(bot: BotFile, actions: unknown, path: string, inBehaviour: string | undefined, out: Problem[]): void {
  if (!Array.isArray(actions)) return;
  actions.forEach((action: Action, i) => {
    if (!isObject(action)) return;
    const here = jsonPath(path, i);
    if (action.type === 'goTo' && action.mode === 'absolute') {
      const name = typeof action.behaviour === 'string' ? action.behaviour : inBehaviour;
      const behaviour = bot.behaviours.find((b) => same(b.name, name));
      const template = (v: unknown) => typeof v === 'string' && v.includes('{{');
      if (name === undefined || template(name) || template(action.interaction)) {
        /* known only at run time */
      } else if (!behaviour) out.push({ Path: jsonPath(here, 'behaviour'), Message: `goTo target: there is no behaviour named '${name}'` });
      else if (behaviour && action.interaction && !behaviour.interactions.some((x) => same(x.name, action.interaction as string))) {
        out.push({ Path: jsonPath(here, 'interaction'), Message: `goTo target: behaviour '${behaviour.name}' has no interaction named '${String(action.interaction)}'` });
      }
    }
    for (const [key, value] of Object.entries(action)) {
      if (key === 'cards' && Array.isArray(value))
        value.forEach((card, c) => checkTargets(bot, isObject(card) ? card.buttons : null, `${jsonPath(jsonPath(here, 'cards'), c)}.buttons`, inBehaviour, out));
      else if (Array.isArray(value) && value.every(isObject)) checkTargets(bot, value, jsonPath(here, key), inBehaviour, out);
    }
  });
}

/** Names empty or taken, and the start marks, in one list (behaviours or one behaviour's interactions). */
function checkNames(list: { name: string; start?: boolean }[], path: string, what: string, out: Problem[]): void {
  list.forEach((x, i) => {
    const first = list.findIndex((y) => same(y.name, x.name));
    if (x.name.trim() && first < i) out.push({ Path: jsonPath(jsonPath(path, i), 'name'), Message: `duplicate ${what} name '${x.name}' (names are case-insensitive; first at index ${first})` });
  });
  if (list.length > 0 && !list.some((x) => x.start)) out.push({ Path: path, Message: `no ${what} has "start": true; exactly one must` });
}

/** What the page can tell is wrong with the draft without asking the server. */
export function localProblems(root: Schema, bot: BotFile): Problem[] {
  const out: Problem[] = [];
  for (const [key, schema] of Object.entries(root.properties ?? {})) if (key in bot) checkValue(root, schema, bot[key], jsonPath('$', key), out);
  checkNames(bot.behaviours, '$.behaviours', 'behaviour', out);
  bot.behaviours.forEach((b, bi) => {
    const base = `$.behaviours[${bi}]`;
    checkNames(b.interactions, `${base}.interactions`, 'interaction', out);
    b.interactions.forEach((x, ii) => checkTargets(bot, x.actions, `${base}.interactions[${ii}].actions`, b.name, out));
    (b.triggers ?? []).forEach((t, ti) => checkTargets(bot, t.actions, `${base}.triggers[${ti}].actions`, b.name, out));
  });
  (bot.triggers ?? []).forEach((t, ti) => checkTargets(bot, t.actions, `$.triggers[${ti}].actions`, undefined, out));
  return out;
}

/**
 * Dead ends (issue 37): interactions that wait for the user (a button, or a question) while
 * nothing in them leads on (no goTo, no hand-over to a person) and their behaviour has no fallback
 * to catch what the user types. Warnings, not problems: the bot is valid and may be published (a
 * bot-level trigger may still take the conversation away), but a user there is likely stuck.
 */
export function deadEnds(bot: BotFile): Problem[] {
  const out: Problem[] = [];
  bot.behaviours.forEach((behaviour, b) => {
    if (behaviour.interactions.some((x) => x.fallback)) return;
    behaviour.interactions.forEach((interaction, i) => {
      let waits = false;
      let leads = false;
      eachAction(interaction.actions, (action) => {
        if (action.type === 'input' || action.type === 'button') waits = true;
        if (action.type === 'goTo' || action.type === 'operator') leads = true;
      });
      if (waits && !leads) {
        out.push({
          Path: `$.behaviours[${b}].interactions[${i}]`,
          Message: `“${interaction.name}” (${behaviour.name}) waits for the user, but nothing leads on from it: give a button or an answer a goTo, or give ${behaviour.name} a fallback interaction.`,
        });
      }
    });
  });
  return out;
}
