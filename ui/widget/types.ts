// The shapes the widget exchanges with the server's web channel (src/http/routes/web.ts): the
// wire types are the server's own, imported (type-only, or the tiny part-type table), never
// declared again here.

import type { ChatReply as ServerReply } from '../../src/conversations/reply.js';
import type { ReplyPart } from '../../src/engine/types.js';
import { PartType } from '../../src/engine/parts.js';

/** A reply part, as the server declares it (src/engine/types.ts). */
export type Part = ReplyPart;

/**
 * The reply of the web channel's calls: the server's chat reply (src/conversations/reply.ts). A
 * resumed conversation also says who said each top-level part (`Senders`), so an operator's
 * messages read back as an operator's.
 */
export type ChatReply = ServerReply & {
  Senders?: Array<'USER' | 'BOT' | 'OPERATOR'>;
  OperatorName?: string | null;
  OperatorAvatar?: string | null;
  Times?: string[];
  StateSince?: string;
  Duplicate?: boolean;
};

export interface LiveMessage {
  Direction: 'USER' | 'BOT' | 'OPERATOR';
  Parts: Part[];
  EnableUserChat: boolean;
  ControlType: number;
}

export interface BotInfo {
  Name: string;
  Avatar: string;
  /** the bot's look (settings.channels.web); absent from an older server */
  Color?: string;
  Greeting?: string;
  Position?: 'right' | 'left';
}

export interface Options {
  /** the bot's web key */
  bot: string;
  /** where the server is; default: where widget.js came from */
  base?: string;
  /** variables for a new conversation */
  variables?: Record<string, string | number | boolean | null>;
  /** the behaviour a new conversation starts in (default: the bot's start behaviour) */
  behaviour?: string;
  /** open the chat window at once */
  open?: boolean;
  /** the language of the widget's own texts (en, de); default: the page's, then the browser's */
  lang?: string;
}

/** Reply part types: the server's one table (src/engine/parts.ts), under the widget's short names. */
export const T = {
  text: PartType.Text,
  button: PartType.Button,
  image: PartType.Image,
  carousel: PartType.Carousel,
  question: PartType.Question,
  video: PartType.Video,
  audio: PartType.Audio,
  file: PartType.File,
  buttons: PartType.Buttons,
  card: PartType.Card,
  link: PartType.Link,
  user: PartType.UserText,
  delay: PartType.Delay,
} as const;
