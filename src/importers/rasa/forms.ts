// A Rasa form → a chain of `input` steps (importers.md "Rasa": "a form becomes input actions when
// every slot it asks is filled from text, else it goes to Skipped"). Each slot is asked with its
// `utter_ask_<form>_<slot>` or `utter_ask_<slot>` response; a slot filled from an entity the bot
// knows expects that entity, one filled from text expects any text.
import type { Action, NlpEntity } from '../../engine/bot-file.js';
import type { ReportBuilder } from '../report.js';
import { listAt, objAt, textAt, type Obj } from '../shared.js';

export interface FormSource {
  name: string;
  definition: unknown;
  path: string;
  slots: Obj;
  slotNames: Map<string, string>;
  entities: NlpEntity[];
  say(response: string): Action[] | null;
  report: ReportBuilder;
}

/** A function that wraps what follows the form in its inputs, or null when the form is skipped. */
export function formActions(form: FormSource): ((after: Action[]) => Action[]) | null {
  const asked = requiredSlots(form.definition);
  const steps: Array<{ slot: string; expect: unknown; question: string | null }> = [];
  for (const slot of asked) {
    const mappings = listAt(objAt(form.slots[slot]).mappings).map(objAt);
    const mapping = mappings[0] ?? { type: 'from_text' };
    const entity = textAt(mapping.entity);
    let expect: unknown = null;
    if (mapping.type === 'from_text') expect = 'any';
    else if (mapping.type === 'from_entity' && entity && form.entities.some((e) => e.name === entity)) expect = { entity };
    if (expect === null || mappings.length > 1) {
      form.report.skip(
        form.path,
        `the form ${form.name}`,
        `its slot "${slot.slice(0, 60)}" is not filled from text (${String(mapping.type ?? 'no mapping').slice(0, 40)}${mapping.type === 'from_entity' ? ` of an entity the bot does not know` : ''}${mappings.length > 1 ? ', or has several mappings' : ''}): ask for it with input steps by hand`,
      );
      return null;
    }
    const ask = form.say(`utter_ask_${form.name}_${slot}`) ?? form.say(`utter_ask_${slot}`);
    const question = ask?.map((a) => (typeof a.text === 'string' ? a.text : Array.isArray(a.texts) ? String(a.texts[0]) : '')).find((t) => t !== '') ?? null;
    if (question === null) form.report.change(form.path, `the question for "${slot.slice(0, 60)}" in ${form.name}`, 'the domain has no utter_ask response for it: the input asks nothing');
    steps.push({ slot, expect, question });
  }
  return (after) => {
    let actions = after;
    for (const step of [...steps].reverse()) {
      actions = [{ type: 'input', ...(step.question ? { question: step.question } : {}), expect: step.expect, variable: form.slotNames.get(step.slot) ?? step.slot, onSuccess: actions }];
    }
    return actions;
  };
}

/** The slots a form asks, in order (3.x: `required_slots: [..]`; 2.x: a map of slot → mappings). */
export function requiredSlots(form: unknown): string[] {
  const required = objAt(form).required_slots;
  if (Array.isArray(required)) return required.map(textAt).filter((s): s is string => s !== null);
  return Object.keys(objAt(required));
}
