// Reply parts as Slack `chat.postMessage` calls (channels-more.md "Outbound", Slack column). Pure:
// the calls are decided when the turn commits and made later by the dispatcher. Limits from the
// Slack reference (api.slack.com/methods/chat.postMessage, api.slack.com/reference/block-kit):
// - `text`: Slack truncates past 40,000 characters and advises under 4,000: split at 4,000;
// - a `section` block's text: 3,000 characters; at most 50 blocks a message;
// - an `actions` block: at most 25 elements; a button's `text` 75 characters, `value` 2,000,
//   `url` 3,000, `action_id` 255 and unique within the message;
// - an `image` block: `image_url` 3,000 characters, `alt_text` 2,000.
// Slack has no typing indicator for bots: a delay (or a part's TypeDelay) is a pause only, a
// pause call that sends nothing and holds the conversation's next call.
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import type { PlatformCall } from '../messaging/model.js';
import { walkParts } from '../messaging/part-walk.js';
import { cutTitle, pauseCall, splitText } from '../messaging/platform.js';

export const SLACK_LIMITS = { text: 4000, sectionText: 3000, actions: 25, buttonText: 75, altText: 2000 } as const;

const POST = 'chat.postMessage';
/** Slack wants a `text` even beside blocks (notifications, screen readers): buttons alone get this one. */
const BUTTONS_ONLY_TEXT = '…';

type Block = Record<string, unknown>;

/** `slack:<team>:<channel>[:<thread_ts>]` without its prefix: where the calls go. */
export function destinationOf(recipient: string): { channel: string; thread_ts?: string } {
  const [, channel = '', thread] = recipient.split(':');
  return thread ? { channel, thread_ts: thread } : { channel };
}

const isButtonPart = (part: ReplyPart) => (part.Type === PartType.Button && Boolean(part.Command)) || (part.Type === PartType.Link && Boolean(part.Url));

/** One `actions` block per 25 buttons; `value` is the button id, `action_id` unique in the message. */
function actionBlocks(buttons: ReplyPart[]): Block[] {
  const elements = buttons.filter(isButtonPart).map((part, i) => {
    const label = part.Text || part.Title || (part.Type === PartType.Link ? part.Url! : part.Command!);
    const text = { type: 'plain_text', text: cutTitle(label, SLACK_LIMITS.buttonText), emoji: true };
    return part.Type === PartType.Link ? { type: 'button', action_id: `link_${i}`, text, url: part.Url } : { type: 'button', action_id: `button_${i}`, text, value: part.Command };
  });
  const blocks: Block[] = [];
  for (let i = 0; i < elements.length; i += SLACK_LIMITS.actions) blocks.push({ type: 'actions', elements: elements.slice(i, i + SLACK_LIMITS.actions) });
  return blocks;
}

const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });

export function renderSlack(parts: ReplyPart[], recipient: string): PlatformCall[] {
  const calls: PlatformCall[] = [];
  const where = destinationOf(recipient);
  const post = (text: string, blocks?: Block[]) => calls.push({ method: POST, params: { ...where, text, ...(blocks && blocks.length > 0 ? { blocks } : {}) } });
  /** a text with buttons: earlier chunks as plain messages, the last one in a section above the buttons */
  const withButtons = (text: string, buttons: ReplyPart[], before: Block[] = []) => {
    const actions = actionBlocks(buttons);
    if (actions.length === 0 && before.length === 0) return text === '' ? undefined : splitText(text, SLACK_LIMITS.text).forEach((chunk) => post(chunk));
    const chunks = text === '' ? [] : splitText(text, SLACK_LIMITS.sectionText);
    const last = chunks.pop();
    for (const chunk of chunks) post(chunk);
    const titles = buttons
      .filter(isButtonPart)
      .map((b) => b.Text || b.Title || '')
      .join(' · ');
    post(last ?? (titles || BUTTONS_ONLY_TEXT), [...before, ...(last ? [section(last)] : []), ...actions]);
  };

  walkParts(parts, {
    typing: (ms) => void calls.push(pauseCall(ms)),
    buttons: (run) => withButtons('', run),
    part(part) {
      const text = part.Text ?? '';
      if (part.Type === PartType.Carousel) {
        for (const card of part.Parts) {
          const caption = [card.Title ? `*${card.Title}*` : '', card.Subtitle ?? ''].filter(Boolean).join('\n');
          const image: Block[] = card.ImageUrl ? [{ type: 'image', image_url: card.ImageUrl, alt_text: cutTitle(card.Title || 'image', SLACK_LIMITS.altText) }] : [];
          withButtons(caption, card.Parts, image);
        }
        return;
      }
      if (part.Type === PartType.Image && part.Url) {
        const image = { type: 'image', image_url: part.Url, alt_text: cutTitle(text || 'image', SLACK_LIMITS.altText) };
        return void post(text || part.Url, [...(text ? [section(text.slice(0, SLACK_LIMITS.sectionText))] : []), image]);
      }
      // Videos, audio and files are links: Slack unfurls what it can.
      if ((part.Type === PartType.Video || part.Type === PartType.Audio || part.Type === PartType.File) && part.Url) return withButtons(text ? `${text}\n${part.Url}` : part.Url, []);
      withButtons(text, part.Parts);
    },
  });
  return calls;
}
