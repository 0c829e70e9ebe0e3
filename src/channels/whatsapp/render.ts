// Reply parts as WhatsApp Cloud API messages (channels.md "Outbound", WhatsApp column). Pure: the
// calls are decided when the turn commits and made later by the dispatcher. Limits are Meta's
// (developers.facebook.com/documentation/business-messaging/whatsapp/messages/…):
// text body 4096; interactive body 1024; reply buttons ≤ 3, title ≤ 20, id ≤ 256, titles unique;
// list: button text ≤ 20, ≤ 10 rows in all, row title ≤ 24, description ≤ 72, id ≤ 200;
// cta_url display_text ≤ 20; media caption ≤ 1024 (audio takes none).
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { cutTitle, splitText } from '../messaging/platform.js';

export const LIMITS = {
  text: 4096,
  body: 1024,
  caption: 1024,
  buttons: 3,
  buttonTitle: 20,
  buttonId: 256,
  rows: 10,
  rowTitle: 24,
  rowDescription: 72,
  rowId: 200,
  listButton: 20,
  ctaText: 20,
} as const;

/** Interactive messages need a body; one that is only buttons gets this one. */
const BUTTONS_ONLY_TEXT = '…';
/** The label of the button that opens a list (WhatsApp shows it with a list icon). */
const LIST_BUTTON = 'Options';
/**
 * The path below COLLOQUY_META_GRAPH_URL: `<phone-number-id>/messages`. The phone number id is the
 * connection's account, filled in when the call is made (send), so a queued call follows a reconnect.
 */
export const MESSAGES_PATH = 'messages';

const MEDIA: Record<number, 'image' | 'video' | 'audio' | 'document'> = {
  [PartType.Image]: 'image',
  [PartType.Video]: 'video',
  [PartType.Audio]: 'audio',
  [PartType.File]: 'document',
};

interface Choice {
  id: string;
  title: string;
}
interface Link {
  title: string;
  url: string;
}

const titleOf = (part: ReplyPart) => (part.Text ?? part.Title ?? '').trim();

/** Button parts split into reply choices and links; a choice whose id is over every limit becomes a line of text. */
function choicesOf(buttons: ReplyPart[]): { choices: Choice[]; links: Link[]; lines: string[] } {
  const choices: Choice[] = [];
  const links: Link[] = [];
  const lines: string[] = [];
  const plain = buttons.filter((b) => b.Type === PartType.Button && b.Command).length;
  const idLimit = plain <= LIMITS.buttons ? LIMITS.buttonId : LIMITS.rowId;
  for (const b of buttons) {
    if (b.Type === PartType.Link && b.Url) links.push({ title: titleOf(b) || b.Url, url: b.Url });
    else if (b.Type === PartType.Button && b.Command) {
      if (b.Command.length <= idLimit) choices.push({ id: b.Command, title: titleOf(b) || b.Command });
      else lines.push(`• ${titleOf(b) || b.Command}`);
    }
  }
  return { choices, links, lines };
}

/** Titles cut to the limit and made unique within one message, as WhatsApp requires. */
function uniqueTitles(titles: string[], limit: number): string[] {
  const seen = new Set<string>();
  return titles.map((title) => {
    let cut = cutTitle(title, limit);
    for (let n = 2; seen.has(cut); n++) cut = `${cutTitle(title, limit - String(n).length - 1)} ${n}`;
    seen.add(cut);
    return cut;
  });
}

export function renderWhatsApp(parts: ReplyPart[], to: string): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const message = (type: string, content: Record<string, unknown>) =>
    calls.push({ method: MESSAGES_PATH, params: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type, [type]: content } });
  // The typing indicator marks the last inbound message read; its id is known only when sent.
  const typing = (ms: number) =>
    calls.push({ method: MESSAGES_PATH, params: { messaging_product: 'whatsapp', status: 'read', typing_indicator: { type: 'text' } }, onLastInbound: true, holdNextMs: ms });
  const texts = (text: string) => {
    if (text.trim() === '') return;
    for (const chunk of splitText(text, LIMITS.text)) message('text', { body: chunk });
  };
  /** A body over the interactive limit: all but its last piece go first as plain texts. */
  const bodyOf = (text: string): string => {
    const chunks = splitText(text.trim() === '' ? BUTTONS_ONLY_TEXT : text, LIMITS.body);
    chunks.slice(0, -1).forEach((c) => message('text', { body: c }));
    return chunks.at(-1)!;
  };
  const withButtons = (text: string, buttons: ReplyPart[]) => {
    const { choices, links, lines } = choicesOf(buttons);
    if (choices.length === 0 && links.length === 1 && lines.length === 0) {
      const link = links[0];
      message('interactive', { type: 'cta_url', body: { text: bodyOf(text) }, action: { name: 'cta_url', parameters: { display_text: cutTitle(link.title, LIMITS.ctaText), url: link.url } } });
      return;
    }
    const extra = [...lines, ...links.map((l) => `${l.title}: ${l.url}`)];
    const full = extra.length > 0 ? [text, extra.join('\n')].filter((t) => t.trim() !== '').join('\n\n') : text;
    if (choices.length === 0) return texts(full);
    if (choices.length <= LIMITS.buttons) {
      const titles = uniqueTitles(
        choices.map((c) => c.title),
        LIMITS.buttonTitle,
      );
      const action = { buttons: choices.map((c, i) => ({ type: 'reply', reply: { id: c.id, title: titles[i] } })) };
      message('interactive', { type: 'button', body: { text: bodyOf(full) }, action });
      return;
    }
    // More than 3: a list, 10 rows a message; a title cut short is shown whole in the description.
    for (let start = 0; start < choices.length; start += LIMITS.rows) {
      const page = choices.slice(start, start + LIMITS.rows);
      const titles = uniqueTitles(
        page.map((c) => c.title),
        LIMITS.rowTitle,
      );
      const rows = page.map((c, i) => ({ id: c.id, title: titles[i], ...(titles[i] !== c.title ? { description: cutTitle(c.title, LIMITS.rowDescription) } : {}) }));
      message('interactive', { type: 'list', body: { text: bodyOf(start === 0 ? full : '') }, action: { button: LIST_BUTTON, sections: [{ rows }] } });
    }
  };
  const media = (type: 'image' | 'video' | 'audio' | 'document', url: string, caption: string) => {
    const fits = caption !== '' && type !== 'audio' && caption.length <= LIMITS.caption;
    message(type, { link: url, ...(fits ? { caption } : {}) });
    if (!fits) texts(caption);
  };

  walkParts(parts, {
    typing,
    buttons: (run) => withButtons('', run),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Carousel) {
        // One image per card, then its buttons with the title and subtitle as their text.
        for (const card of part.Parts) {
          const caption = [card.Title, card.Subtitle].filter((t): t is string => Boolean(t)).join('\n');
          const hasButtons = card.Parts.some((b) => b.Type === PartType.Button || b.Type === PartType.Link);
          if (card.ImageUrl) media('image', card.ImageUrl, hasButtons ? '' : caption);
          if (hasButtons) withButtons(caption, card.Parts);
          else if (!card.ImageUrl) texts(caption);
        }
        return;
      }
      const type = MEDIA[part.Type];
      if (type && part.Url) media(type, part.Url, text);
      else withButtons(text, part.Parts);
    },
  });
  return calls;
}
