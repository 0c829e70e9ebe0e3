// Reply parts as Bot Framework activities (channels-more.md "Outbound", Teams column). Pure: the
// activities are decided when the turn commits and posted later by the dispatcher to the
// conversation's verified serviceUrl. Shapes from the Bot Framework Activity schema and the card
// reference (learn.microsoft.com "Cards reference", "Add media attachments to messages"):
// - a text is `{type: "message", text}`; Teams refuses messages over about 28 KB, so texts are
//   split at 7,000 characters (a character is at most 4 bytes in UTF-8);
// - buttons are a Hero card (`application/vnd.microsoft.card.hero`) with `messageBack` buttons whose
//   `value` is the button id (Teams posts it back as the activity's `value`) and `openUrl` buttons
//   for links; Teams shows at most 6 buttons a card, so longer lists continue on further cards;
// - images, videos, audio and files are attachments with a `contentUrl`;
// - a carousel is one message of Hero cards with `attachmentLayout: "carousel"`;
// - a delay (or a part's TypeDelay) is `{type: "typing"}`, holding the next activity.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { cutTitle, splitText } from '../messaging/platform.js';

export const TEAMS_LIMITS = { text: 7000, buttonsPerCard: 6, buttonTitle: 100 } as const;

export const ACTIVITY = 'activity';
const HERO = 'application/vnd.microsoft.card.hero';

type Json = Record<string, unknown>;

const isButtonPart = (part: ReplyPart) => (part.Type === PartType.Button && Boolean(part.Command)) || (part.Type === PartType.Link && Boolean(part.Url));

function button(part: ReplyPart): Json {
  const title = cutTitle(part.Text || part.Title || (part.Type === PartType.Link ? part.Url! : part.Command!), TEAMS_LIMITS.buttonTitle);
  return part.Type === PartType.Link ? { type: 'openUrl', title, value: part.Url } : { type: 'messageBack', title, displayText: title, text: title, value: part.Command };
}

/** Hero cards holding the buttons, 6 a card; the first card carries the text (and the card's title, subtitle and image). */
function heroCards(buttons: ReplyPart[], first: Json = {}): Json[] {
  const all = buttons.filter(isButtonPart).map(button);
  const cards: Json[] = [];
  for (let i = 0; i === 0 || i < all.length; i += TEAMS_LIMITS.buttonsPerCard) {
    cards.push({ contentType: HERO, content: { ...(i === 0 ? first : {}), buttons: all.slice(i, i + TEAMS_LIMITS.buttonsPerCard) } });
  }
  return cards;
}

/** A media attachment's MIME type from its URL's extension; Teams needs one, a generic one will do. */
function mediaType(part: ReplyPart): string {
  const extension = /\.([a-z0-9]{1,5})$/i.exec(pathOf(part.Url!))?.[1]?.toLowerCase() ?? '';
  const known: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', mp4: 'video/mp4', mp3: 'audio/mpeg', pdf: 'application/pdf' };
  if (known[extension]) return known[extension];
  return part.Type === PartType.Image ? 'image/*' : part.Type === PartType.Video ? 'video/*' : part.Type === PartType.Audio ? 'audio/*' : 'application/octet-stream';
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The file's name as Teams shows it: the URL's last path segment. */
function fileName(url: string): string {
  const last = pathOf(url).split('/').pop() ?? '';
  try {
    return decodeURIComponent(last).slice(0, 256) || 'file';
  } catch {
    return last.slice(0, 256) || 'file';
  }
}

export function renderTeams(parts: ReplyPart[]): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const post = (activity: Json) => calls.push({ method: ACTIVITY, params: { type: 'message', ...activity } });
  const withButtons = (text: string, buttons: ReplyPart[]) => {
    const chunks = text === '' ? [] : splitText(text, TEAMS_LIMITS.text);
    if (!buttons.some(isButtonPart)) return chunks.forEach((chunk) => post({ text: chunk }));
    const last = chunks.pop();
    for (const chunk of chunks) post({ text: chunk });
    post({ attachments: heroCards(buttons, last ? { text: last } : {}) });
  };

  walkParts(parts, {
    typing: (ms) => void calls.push({ method: ACTIVITY, params: { type: 'typing' }, holdNextMs: ms }),
    buttons: (run) => withButtons('', run),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Carousel) {
        const cards = part.Parts.flatMap((card) =>
          heroCards(card.Parts, {
            ...(card.Title ? { title: card.Title } : {}),
            ...(card.Subtitle ? { subtitle: card.Subtitle } : {}),
            ...(card.ImageUrl ? { images: [{ url: card.ImageUrl, alt: card.Title || 'image' }] } : {}),
          }),
        );
        return void (cards.length > 0 && post({ attachmentLayout: 'carousel', attachments: cards }));
      }
      const media = part.Type === PartType.Image || part.Type === PartType.Video || part.Type === PartType.Audio || part.Type === PartType.File;
      if (media && part.Url) {
        return void post({ ...(text ? { text: text.slice(0, TEAMS_LIMITS.text) } : {}), attachments: [{ contentType: mediaType(part), contentUrl: part.Url, name: fileName(part.Url) }] });
      }
      withButtons(text, part.Parts);
    },
  });
  return calls;
}
