// Reply parts as SMS (channels-more.md "Outbound", SMS column): SMS has no buttons, so a button
// is a numbered line (`1. Opening hours`) the person answers with its number or its text
// (options.ts), a link is its title and URL, media are their URL (MMS is not used: not every
// number can send it, and a URL reaches every phone). Texts are split at Twilio's 1,600-character
// limit for one message's Body. No typing indicator exists: a delay is a pause.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { pauseCall, splitText } from '../messaging/platform.js';

export const SMS_BODY_LIMIT = 1600;
/** The Twilio call of a message: `POST …/Accounts/{Sid}/Messages.json` (From is added when sent). */
export const MESSAGES = 'Messages.json';

export function renderSms(parts: ReplyPart[], phone: string): PlatformCall[] {
  const calls: PlatformCall[] = [];
  let number = 0;
  /** the lines of a set of buttons, numbered on across the whole turn as options.ts counts them */
  const lines = (buttons: ReplyPart[]) =>
    buttons.flatMap((b) => {
      const label = b.Text || b.Title || '';
      if (b.Type === PartType.Link && b.Url) return [label ? `${label}: ${b.Url}` : b.Url];
      if (b.Type === PartType.Button && b.Command) return [`${++number}. ${label || b.Command}`];
      return [];
    });
  const send = (...pieces: string[]) => {
    const body = pieces.filter((p) => p !== '').join('\n');
    if (body.trim() === '') return;
    for (const chunk of splitText(body, SMS_BODY_LIMIT)) calls.push({ method: MESSAGES, params: { To: phone, Body: chunk } });
  };

  walkParts(parts, {
    typing: (ms) => void calls.push(pauseCall(ms)),
    buttons: (run) => send(...lines(run)),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Carousel) {
        for (const card of part.Parts) send(card.Title ?? '', card.Subtitle ?? '', card.ImageUrl ?? '', ...lines(card.Parts));
        return;
      }
      const media = [PartType.Image, PartType.Video, PartType.Audio, PartType.File] as number[];
      if (media.includes(part.Type) && part.Url) return send(text, part.Url);
      send(text, ...lines(part.Parts));
    },
  });
  return calls;
}
