// An SMS answer to the options it was shown (channels-more.md "Inbound", Twilio): the number of a
// listed option, or an option's exact text (case and surrounding spaces aside), is that button's
// click. The options are the buttons of what the bot said since the person's last message,
// numbered in the order render.ts numbered them (depth first: a text's buttons, a card's buttons).
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';

/** The buttons with a command in `parts`, in the order they were numbered. */
function optionsOf(parts: ReplyPart[]): ReplyPart[] {
  const options: ReplyPart[] = [];
  const pending = [...parts].reverse();
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part.Type === PartType.Button && part.Command) options.push(part);
    else if (part.Parts?.length) pending.push(...[...part.Parts].reverse());
  }
  return options;
}

/** The command `text` names among the options shown after the person's last message, or null. */
export function chooseOption(text: string, recent: ReplyPart[]): string | null {
  let lastUser = recent.length - 1;
  while (lastUser >= 0 && recent[lastUser].Type !== PartType.UserText) lastUser--;
  const options = optionsOf(recent.slice(lastUser + 1));
  const said = text.trim();
  if (/^\d{1,3}$/.test(said)) return options[Number(said) - 1]?.Command ?? null;
  const lower = said.toLowerCase();
  return options.find((o) => (o.Text || o.Title || '').trim().toLowerCase() === lower)?.Command ?? null;
}
