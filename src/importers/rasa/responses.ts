// A Rasa response (`utter_…` in the domain) → the actions that say it (importers.md "Rasa"): its
// variations become `texts` (one picked at random), its buttons buttons whose click runs what the
// payload's intent would (`/greet`, with `{"entity": "value"}` set as entity variables), its image
// an image. Slots in texts (`{name}`) become templates (`{{name}}`).
import type { Action } from '../../engine/bot-file.js';
import type { ReportBuilder } from '../report.js';
import { listAt, objAt, textAt, type Obj } from '../shared.js';

export interface ResponseContext {
  report: ReportBuilder;
  /** where the domain declared the responses: `domain.yml` */
  file: string;
  /** the actions an intent's trigger runs, or null for an intent the bot does not have */
  intentActions(intent: string): Action[] | null;
  /** a slot's template (`{{name}}`, or the entity variable a slot is filled from) */
  slotTemplate(slot: string): string;
}

/** `/intent` or `/intent{"entity": "value"}` */
const PAYLOAD = /^\/([^{\s]{1,200})(\{.{0,2000}\})?$/s;

export function responseActions(name: string, variations: unknown, ctx: ResponseContext): Action[] {
  const path = `${ctx.file}: $.responses.${name}`;
  const all = listAt(variations).map(objAt);
  const kept = all.filter((v, i) => {
    if (v.channel !== undefined || v.condition !== undefined) {
      ctx.report.skip(`${path}[${i}]`, `a ${v.channel !== undefined ? 'channel-specific' : 'conditional'} variation of ${name}`, 'only variations for every channel and condition are carried');
      return false;
    }
    if (v.custom !== undefined) ctx.report.skip(`${path}[${i}].custom`, `the custom payload of ${name}`, 'Colloquy has no custom payloads: rebuild it with steps');
    return true;
  });
  const render = (text: string) => text.replace(/\{([A-Za-z_][\w-]{0,99})\}/g, (_w, slot: string) => ctx.slotTemplate(slot));
  const texts = kept
    .map((v) => textAt(v.text))
    .filter((t): t is string => t !== null && t.trim() !== '')
    .map(render);
  const first = kept[0] ?? {};
  const actions: Action[] = [];
  const buttons = listAt(first.buttons).map(objAt);
  if (buttons.length > 0) {
    if (texts.length > 1) ctx.report.change(`${path}[0]`, `the variations of ${name}`, 'a text with buttons has one text: the first variation is said');
    actions.push({ type: 'buttons', text: texts[0] ?? '', buttons: buttons.map((b, i) => button(b, `${path}[0].buttons[${i}]`, ctx)) });
  } else if (texts.length === 1) actions.push({ type: 'text', text: texts[0]! });
  else if (texts.length > 1) actions.push({ type: 'text', texts });
  const image = textAt(first.image);
  if (image) actions.push({ type: 'image', url: image });
  kept.slice(1).forEach((v, i) => {
    if (v.image !== undefined || v.buttons !== undefined)
      ctx.report.change(`${path}[${i + 1}]`, `the image or buttons of a later variation of ${name}`, "the first variation's image and buttons are the ones shown");
  });
  return actions;
}

function button(b: Obj, path: string, ctx: ResponseContext): Action {
  const title = textAt(b.title) ?? textAt(b.payload) ?? 'Button';
  const payload = textAt(b.payload) ?? '';
  const match = PAYLOAD.exec(payload.trim());
  if (!match) {
    ctx.report.change(path, `the button "${title.slice(0, 60)}"`, 'its payload is not an intent (/intent): its click does nothing yet');
    return { type: 'button', text: title, onClick: [] };
  }
  const intent = match[1]!;
  const entities: Action[] = [];
  if (match[2]) {
    try {
      for (const [entity, value] of Object.entries(objAt(JSON.parse(match[2])))) entities.push({ type: 'setVariable', name: `entity_${entity}`, value: String(value) });
    } catch {
      ctx.report.change(path, `the entities of the button "${title.slice(0, 60)}"`, 'they are not valid JSON: not set');
    }
  }
  const actions = ctx.intentActions(intent);
  if (actions === null) ctx.report.change(path, `the button "${title.slice(0, 60)}"`, `its intent "${intent.slice(0, 60)}" is not in the bot: its click does nothing yet`);
  return { type: 'button', text: title, onClick: [...entities, ...(actions ?? [])] };
}
