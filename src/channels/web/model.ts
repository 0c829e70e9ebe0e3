// What the web channel keeps about a visitor beside the conversation (migration 020): what their
// page said when they last opened the chat. Name and e-mail are not here: the bot asks for them
// like anything else, into the well-known variables `name` and `email` (docs/channels.md).

export interface WebVisitorContext {
  /** the widget's id for this browser (kept across Colloquy.reset()): links a visitor's conversations */
  visitorId: string | null;
  /** the page the widget runs on (no fragment), at most 2,048 characters */
  pageUrl: string | null;
  /** the browser's user agent, at most 256 characters */
  userAgent: string | null;
  /** the browser's language tag, at most 35 characters */
  language: string | null;
}

export interface WebVisitorRecord extends WebVisitorContext {
  conversationId: number;
  seenAt: number;
}

/** Another conversation of the same visitor on the same bot. */
export interface EarlierConversation {
  userId: string;
  createdAt: number;
  updatedAt: number;
  controlState: number;
}
