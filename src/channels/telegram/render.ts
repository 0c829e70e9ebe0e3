// Reply parts as Telegram Bot API calls (channels.md "Outbound", Telegram column). Pure: the
// calls are decided when the turn commits and made later by the dispatcher.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { splitText } from '../messaging/platform.js';

const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
/** Telegram refuses an empty text; a message that is only buttons gets this one. */
const BUTTONS_ONLY_TEXT = '…';

type InlineButton = { text: string; callback_data: string } | { text: string; url: string };

const MEDIA: Record<number, { method: string; field: string }> = {
  [PartType.Image]: { method: 'sendPhoto', field: 'photo' },
  [PartType.Video]: { method: 'sendVideo', field: 'video' },
  [PartType.Audio]: { method: 'sendAudio', field: 'audio' },
  [PartType.File]: { method: 'sendDocument', field: 'document' },
};

function buttonOf(part: ReplyPart): InlineButton | null {
  const text = part.Text ?? part.Title ?? '';
  if (part.Type === PartType.Link && part.Url) return { text: text || part.Url, url: part.Url };
  if (part.Type === PartType.Button && part.Command) return { text: text || part.Command, callback_data: part.Command };
  return null;
}

/** One button a row (channels.md), so long titles stay readable on a phone. */
function keyboardOf(buttons: ReplyPart[]): { inline_keyboard: InlineButton[][] } | undefined {
  const rows = buttons
    .map(buttonOf)
    .filter((b): b is InlineButton => b !== null)
    .map((b) => [b]);
  return rows.length > 0 ? { inline_keyboard: rows } : undefined;
}

export function renderTelegram(parts: ReplyPart[], chatId: string): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const typing = (ms: number) => calls.push({ method: 'sendChatAction', params: { chat_id: chatId, action: 'typing' }, holdNextMs: ms });
  const texts = (text: string, buttons: ReplyPart[]) => {
    const chunks = splitText(text === '' && buttons.length > 0 ? BUTTONS_ONLY_TEXT : text, TEXT_LIMIT);
    const markup = keyboardOf(buttons);
    chunks.forEach((chunk, i) => {
      const last = i === chunks.length - 1;
      calls.push({ method: 'sendMessage', params: { chat_id: chatId, text: chunk, ...(last && markup ? { reply_markup: markup } : {}) } });
    });
  };
  const media = (method: string, field: string, url: string, caption: string, buttons: ReplyPart[]) => {
    const [first = '', ...rest] = caption === '' ? [''] : splitText(caption, CAPTION_LIMIT);
    const markup = keyboardOf(buttons);
    calls.push({ method, params: { chat_id: chatId, [field]: url, ...(first ? { caption: first } : {}), ...(markup && rest.length === 0 ? { reply_markup: markup } : {}) } });
    if (rest.length > 0) texts(rest.join(' '), buttons);
  };

  walkParts(parts, {
    typing,
    // Top-level buttons (quick replies) go out as one keyboard message.
    buttons: (run) => texts('', run),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Buttons) return texts(text, part.Parts);
      if (part.Type === PartType.Carousel) {
        for (const card of part.Parts) {
          const caption = [card.Title, card.Subtitle].filter((t): t is string => Boolean(t)).join('\n');
          if (card.ImageUrl) media('sendPhoto', 'photo', card.ImageUrl, caption, card.Parts);
          else texts(caption, card.Parts);
        }
        return;
      }
      const kind = MEDIA[part.Type];
      if (kind && part.Url) media(kind.method, kind.field, part.Url, text, []);
      else if (text !== '') texts(text, part.Parts);
    },
  });
  return calls;
}
