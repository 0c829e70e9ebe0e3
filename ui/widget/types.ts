// The shapes the widget exchanges with the server's web channel (src/http/routes/web.ts).

/** A reply part (bot-format.md, "Reply part" column). */
export interface Part {
  Type: number;
  Text: string | null;
  Command: string | null;
  TypeDelay: number;
  Parts: Part[];
  Url?: string;
  Title?: string;
  Subtitle?: string | null;
  ImageUrl?: string | null;
}

export interface ChatReply {
  Parts: Part[];
  UserId: string;
  EnableUserChat: boolean;
  ControlType: number;
}

export interface LiveMessage {
  Direction: 'USER' | 'BOT' | 'OPERATOR';
  Parts: Part[];
  EnableUserChat: boolean;
  ControlType: number;
}

export interface BotInfo {
  Name: string;
  Avatar: string;
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
}

/** Reply part types (bot-format.md). */
export const T = {
  text: 0,
  button: 1,
  image: 3,
  carousel: 5,
  question: 6,
  video: 9,
  audio: 10,
  file: 11,
  buttons: 13,
  card: 14,
  link: 17,
  user: 19,
  delay: 25,
} as const;
