// An intent's response messages → actions: text responses (one `speech` picked at random) become
// text, quick replies buttons, images images; other rich messages and other platforms' messages
// are skipped. `$alias` references to a parameter become the entity's variable (`{{entity_x}}`).
import type { Action } from '../../engine/bot-file.js';
import type { ReportBuilder } from '../report.js';
import { listAt, objAt, textAt, type Obj } from '../shared.js';
import { entityFor, type ConvertedEntities } from './entities.js';

/** Dialogflow ES message types (the `type` of a message in an intent export). */
const TEXT = 0;
const CARD = 1;
const QUICK_REPLIES = 2;
const IMAGE = 3;
const PAYLOAD = 4;

/** Marks a quick-replies action with its source path until convert.ts has linked its buttons (then removed). */
export const QUICK_REPLY_PATH = '__quickReplies';

export function messagesOf(response: Obj, file: string, language: string, entities: ConvertedEntities, report: ReportBuilder): Action[] {
  const parameters = new Map<string, string>();
  for (const p of listAt(response.parameters).map(objAt)) {
    const entity = textAt(p.dataType) ? entityFor(entities, textAt(p.dataType)!) : null;
    if (textAt(p.name) && entity) parameters.set(textAt(p.name)!, `{{entity_${entity}}}`);
  }
  const render = (text: string, path: string): string => {
    const out = text.replace(/\$([A-Za-z_][\w-]*)/g, (whole, name: string) => parameters.get(name) ?? whole);
    if (/#[A-Za-z_][\w-]*\.[A-Za-z_]/.test(out))
      report.change(path, 'a context parameter reference', 'kept as written: Colloquy has no context parameters; use the entity variable (entity_<name>) instead');
    return out;
  };
  const actions: Action[] = [];
  listAt(response.messages).forEach((m, i) => {
    const message = objAt(m);
    const path = `${file}: $.responses[0].messages[${i}]`;
    if (textAt(message.lang) && textAt(message.lang) !== language) return;
    if (textAt(message.platform) && message.platform !== 'default') {
      report.skip(path, `a message for ${String(message.platform).slice(0, 40)}`, "only the agent's default responses are carried");
      return;
    }
    const type = Number(message.type ?? TEXT);
    if (type === TEXT) {
      const speech = (Array.isArray(message.speech) ? message.speech : [message.speech]).map(textAt).filter((s): s is string => !!s && s.trim() !== '');
      if (speech.length === 1) actions.push({ type: 'text', text: render(speech[0]!, path) });
      else if (speech.length > 1) actions.push({ type: 'text', texts: speech.map((s) => render(s, path)) });
    } else if (type === QUICK_REPLIES) {
      const replies = listAt(message.replies)
        .map(textAt)
        .filter((r): r is string => !!r);
      // a quick reply sends its text: convert.ts links each to the intent that has it as a training phrase
      actions.push({ type: 'buttons', text: render(textAt(message.title) ?? '', path), buttons: replies.map((r) => ({ type: 'button', text: r, onClick: [] })), [QUICK_REPLY_PATH]: path });
    } else if (type === IMAGE && textAt(message.imageUrl)) {
      actions.push({ type: 'image', url: textAt(message.imageUrl)! });
    } else {
      const what = type === CARD ? 'a card' : type === PAYLOAD ? 'a custom payload' : `a message of type ${String(message.type).slice(0, 20)}`;
      report.skip(path, what, 'Colloquy has no twin for it: rebuild it with buttons or media steps');
    }
  });
  return actions;
}
