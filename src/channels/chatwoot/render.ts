// Reply parts as Chatwoot messages (channels-more.md "Outbound", Chatwoot column): `POST
// /api/v1/accounts/{a}/conversations/{c}/messages` with `content`; buttons as an `input_select`
// (`content_attributes.items: [{title, value}]`, value = the button id) under the text, link
// buttons and media written into the content as their URL. Chatwoot has no bot typing indicator:
// a delay is a pause.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { pauseCall, splitText } from '../messaging/platform.js';

/** Chatwoot keeps a message's content up to 150,000 characters; its widget shows far less well. */
const CONTENT_LIMIT = 10_000;
/** An input_select needs a text above its options. */
const BUTTONS_ONLY_TEXT = '…';

/** `<account>:<conversation>`: the path of the conversation's messages. */
export const messagesPath = (recipient: string) => {
  const [account, conversation] = recipient.split(':');
  return `accounts/${account}/conversations/${conversation}`;
};

export function renderChatwoot(parts: ReplyPart[], recipient: string): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const path = `${messagesPath(recipient)}/messages`;
  const post = (text: string, buttons: ReplyPart[] = []) => {
    const items = buttons.filter((b) => b.Type === PartType.Button && b.Command).map((b) => ({ title: b.Text || b.Title || b.Command!, value: b.Command! }));
    const links = buttons.filter((b) => b.Type === PartType.Link && b.Url).map((b) => (b.Text || b.Title ? `${b.Text || b.Title}: ${b.Url}` : b.Url!));
    const content = [text, ...links].filter((t) => t !== '').join('\n');
    if (content === '' && items.length === 0) return;
    const chunks = splitText(content === '' ? BUTTONS_ONLY_TEXT : content, CONTENT_LIMIT);
    chunks.forEach((chunk, i) => {
      const select = i === chunks.length - 1 && items.length > 0 ? { content_type: 'input_select', content_attributes: { items } } : {};
      calls.push({ method: path, params: { content: chunk, message_type: 'outgoing', private: false, ...select } });
    });
  };

  walkParts(parts, {
    typing: (ms) => void calls.push(pauseCall(ms)),
    buttons: (run) => post('', run),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Carousel) {
        for (const card of part.Parts) post([card.Title ? `**${card.Title}**` : '', card.Subtitle ?? '', card.ImageUrl ?? ''].filter(Boolean).join('\n'), card.Parts);
        return;
      }
      const media = [PartType.Image, PartType.Video, PartType.Audio, PartType.File] as number[];
      if (media.includes(part.Type) && part.Url) return post([text, part.Url].filter(Boolean).join('\n'));
      post(text, part.Parts);
    },
  });
  return calls;
}
