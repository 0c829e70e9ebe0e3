// Reply parts as Messenger Send API calls (channels.md "Outbound", Messenger column). Pure: the
// calls are decided when the turn commits and made later by the dispatcher, all on `me/messages`.
// Limits, from the Messenger Platform reference (developers.facebook.com/docs/messenger-platform):
// - Send API `message.text`: 2000 characters (channels.md pins 2000).
// - button template: `text` up to 640 characters, 1-3 buttons; a button `title` 20 characters,
//   a postback `payload` 1000 characters (send-messages/template/button, reference/buttons/postback).
// - quick replies: at most 13, `title` 20 characters, `payload` 1000 characters, and the message
//   needs a non-empty `text` (reference/buttons/quick-replies).
// - generic template: at most 10 elements, `title` and `subtitle` 80 characters each, at most 3
//   buttons per element, and at least one property besides `title` (send-messages/template/generic).
// - `sender_action` goes alone with `recipient`, never with a `message` (send-messages/sender-actions).
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { cutTitle, MAX_TYPING_MS, splitText } from '../messaging/platform.js';

export const MESSENGER_LIMITS = {
  text: 2000,
  buttonTemplateText: 640,
  buttonTemplateButtons: 3,
  buttonTitle: 20,
  payload: 1000,
  quickReplies: 13,
  quickReplyTitle: 20,
  elements: 10,
  elementTitle: 80,
  elementSubtitle: 80,
  elementButtons: 3,
} as const;

/** The Send API path of every Messenger call: the page is the token's own (`me`). */
export const SEND_PATH = 'me/messages';
/** The button template and quick replies refuse an empty text; a message that is only buttons gets this one. */
const BUTTONS_ONLY_TEXT = '…';

type Button = { type: 'postback'; title: string; payload: string } | { type: 'web_url'; title: string; url: string };

const MEDIA: Record<number, string> = {
  [PartType.Image]: 'image',
  [PartType.Video]: 'video',
  [PartType.Audio]: 'audio',
  [PartType.File]: 'file',
};

const isButtonPart = (part: ReplyPart) => (part.Type === PartType.Button && Boolean(part.Command)) || (part.Type === PartType.Link && Boolean(part.Url));

function buttonOf(part: ReplyPart): Button {
  const label = part.Text ?? part.Title ?? '';
  if (part.Type === PartType.Link) return { type: 'web_url', title: cutTitle(label || part.Url!, MESSENGER_LIMITS.buttonTitle), url: part.Url! };
  return { type: 'postback', title: cutTitle(label || part.Command!, MESSENGER_LIMITS.buttonTitle), payload: part.Command! };
}

/**
 * What differs on Instagram, which speaks the same Send API (channels-more.md): texts of at most
 * 1000 characters, and no button template, so buttons are always quick replies.
 */
export interface SendApiProfile {
  text: number;
  buttonTemplate: boolean;
}
const MESSENGER: SendApiProfile = { text: MESSENGER_LIMITS.text, buttonTemplate: true };

export function renderMessenger(parts: ReplyPart[], psid: string, profile: SendApiProfile = MESSENGER): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const recipient = { id: psid };
  const message = (body: Record<string, unknown>) => calls.push({ method: SEND_PATH, params: { recipient, messaging_type: 'RESPONSE', message: body } });
  const typing = (ms: number) => calls.push({ method: SEND_PATH, params: { recipient, sender_action: 'typing_on' }, holdNextMs: Math.min(ms, MAX_TYPING_MS) });
  /** plain texts, split at the Send API limit; `last` decorates the final chunk */
  const texts = (text: string, limit: number, last?: (chunk: string) => Record<string, unknown>) => {
    const chunks = splitText(text, limit);
    chunks.forEach((chunk, i) => message(i === chunks.length - 1 && last ? last(chunk) : { text: chunk }));
  };
  const withButtons = (text: string, children: ReplyPart[]) => {
    const buttons = children.filter(isButtonPart);
    if (buttons.length === 0) {
      if (text !== '') texts(text, profile.text);
      return;
    }
    const body = text === '' ? BUTTONS_ONLY_TEXT : text;
    // The button template counts link buttons among its 3 (channels.md "Pinned details").
    if (profile.buttonTemplate && buttons.length <= MESSENGER_LIMITS.buttonTemplateButtons) {
      const payload = (chunk: string) => ({ attachment: { type: 'template', payload: { template_type: 'button', text: chunk, buttons: buttons.map(buttonOf) } } });
      texts(body, MESSENGER_LIMITS.buttonTemplateText, payload);
      return;
    }
    // More than 3: quick replies for the plain buttons, the links written out in the text.
    const plain = buttons.filter((b) => b.Type === PartType.Button).slice(0, MESSENGER_LIMITS.quickReplies);
    const links = buttons.filter((b) => b.Type === PartType.Link).map((b) => `${b.Text || b.Title || b.Url}: ${b.Url}`);
    const full = [text, ...links].filter((t) => t !== '').join('\n') || BUTTONS_ONLY_TEXT;
    const quickReplies = plain.map((b) => ({ content_type: 'text', title: cutTitle(b.Text || b.Title || b.Command!, MESSENGER_LIMITS.quickReplyTitle), payload: b.Command! }));
    texts(full, profile.text, quickReplies.length > 0 ? (chunk) => ({ text: chunk, quick_replies: quickReplies }) : undefined);
  };
  const carousel = (cards: ReplyPart[]) => {
    let elements: Record<string, unknown>[] = [];
    const flush = () => {
      if (elements.length > 0) message({ attachment: { type: 'template', payload: { template_type: 'generic', elements } } });
      elements = [];
    };
    for (const card of cards) {
      const title = card.Title || card.Text || '';
      const buttons = card.Parts.filter(isButtonPart).slice(0, MESSENGER_LIMITS.elementButtons).map(buttonOf);
      const element: Record<string, unknown> = { title: cutTitle(title || BUTTONS_ONLY_TEXT, MESSENGER_LIMITS.elementTitle) };
      if (card.Subtitle) element.subtitle = cutTitle(card.Subtitle, MESSENGER_LIMITS.elementSubtitle);
      if (card.ImageUrl) element.image_url = card.ImageUrl;
      if (buttons.length > 0) element.buttons = buttons;
      if (Object.keys(element).length === 1) {
        // A card with nothing but a title is refused by the generic template: it goes as a text.
        flush();
        if (title !== '') texts(title, profile.text);
        continue;
      }
      elements.push(element);
      if (elements.length === MESSENGER_LIMITS.elements) flush();
    }
    flush();
  };

  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.Type === PartType.Delay) {
      typing(part.TypeDelay);
      continue;
    }
    if (part.TypeDelay > 0) typing(part.TypeDelay);
    const text = part.Text ?? '';
    switch (part.Type) {
      case PartType.Button:
      case PartType.Link: {
        // Top-level buttons go out as one message with the ones right after them.
        const run = [part];
        while (i + 1 < parts.length && (parts[i + 1].Type === PartType.Button || parts[i + 1].Type === PartType.Link) && parts[i + 1].TypeDelay === 0) run.push(parts[++i]);
        withButtons('', run);
        break;
      }
      case PartType.Carousel:
        carousel(part.Parts);
        break;
      case PartType.UserText:
        break;
      default: {
        const kind = MEDIA[part.Type];
        if (kind && part.Url) {
          // Messenger attachments carry no caption: the part's text follows as its own message.
          message({ attachment: { type: kind, payload: { url: part.Url } } });
          if (text !== '') withButtons(text, part.Parts);
        } else withButtons(text, part.Parts);
      }
    }
  }
  return calls;
}
