// The console API's answers and live events as the console page reads them. The server declares
// them in src/operators/ (views.ts, console-service.ts, console-inbox.ts, share-access.ts,
// web-visitors.ts) and src/conversations/control-service.ts; they are written again here, not
// imported type-only as ui/analytics/types.ts does, because those files' imports reach Node's own
// modules, which a page's type-check (no Node types) cannot read. A change to the wire is made in
// both places; the console's browser tests read every one of them.

/** A reply part (api.md section 3): the fields the console draws, by type. */
export interface Part {
  Type: number;
  Text?: string | null;
  Url?: string | null;
  Title?: string | null;
  Subtitle?: string | null;
  ImageUrl?: string | null;
  Parts?: Part[];
}

/** One stored message. */
export interface Line {
  Direction: string;
  At: string;
  Parts: Part[];
}

/** Something an operator did, drawn between the messages. */
export interface Activity {
  Kind: string;
  Actor: string;
  Detail: string | null;
  At: string;
}

/** A conversation's control state (api.md section 8): 0 bot, 1 waiting, 2 taken over, 3 banned. */
export interface StateView {
  UserId: string;
  State: number;
  Operator: string | null;
  BanExpiration: string | null;
  BanMessage: string | null;
}

/** A conversation as a share link's page sees it. */
export interface SharedSummary extends StateView {
  Name: string | null;
  BotId: string;
  BotName: string;
  Channel: string;
  Creation: string;
  LastActivity: string;
  Preview: string;
}

export interface Person {
  OperatorId: string;
  Name: string;
}
export interface TeamRef {
  TeamId: number;
  Name: string;
}
export type InboxStatus = 'open' | 'resolved' | 'snoozed';

/** A conversation as the console lists it (GET /console/api/conversations) and opens it. */
export interface Summary extends SharedSummary {
  StateSince: string;
  AssignedTo: (Person & { Email: string }) | null;
  OperatorName: string | null;
  Status: InboxStatus;
  SnoozedUntil: string | null;
  Team: TeamRef | null;
  /** how many of its agent's tool calls wait for an operator's decision: in the list's entries only */
  PendingApprovals?: number;
}

export interface Note {
  NoteId: number;
  Author: string;
  Text: string;
  At: string;
}

/** What the conversation knows about the person (contact.ts draws it). */
export interface Contact {
  Variables: { Name: string; Value: string }[];
  Tags: string[];
  PrivacyFlags: { Name: string; Enabled: boolean }[];
  Channel: string;
}

/** One conversation opened in the console (GET /console/api/conversations/{botId}/{userId}). */
export interface ConsoleView {
  Conversation: Summary;
  Transcript: Line[];
  Notes: Note[];
  Contact: Contact;
  Activity: Activity[];
}

/** The one conversation of a share link (GET /share/{code}/api/conversation). */
export interface SharedView {
  Mode: 'view' | 'takeover' | 'auto';
  ExpiresAt: string;
  /** this link may write to the user now */
  CanSend: boolean;
  Conversation: SharedSummary;
  Transcript: Line[];
}

export type ConversationView = ConsoleView | SharedView;
export const isShared = (view: ConversationView): view is SharedView => 'Mode' in view;

/** A message found by the server's full-text search. */
export interface SearchHit {
  BotId: string;
  UserId: string;
  Text: string;
}

export interface Colleague extends Person {
  Online: boolean;
}
export interface Team extends TeamRef {
  Members: Colleague[];
}
/** GET /console/api/teams */
export interface Teams {
  Teams: Team[];
  Operators: Colleague[];
}

export interface Canned {
  CannedId: number;
  Shortcut: string;
  Text: string;
}

/** The web visitor of a conversation (GET …/visitor). */
export interface Visitor {
  Name: string | null;
  Email: string | null;
  PageUrl: string | null;
  Browser: string | null;
  UserAgent: string | null;
  Language: string | null;
  SeenAt: string | null;
  Earlier: Array<{ UserId: string; StartedAt: string; LastActivity: string; State: number }>;
}

/** A live event (one JSON object per Server-Sent Event; src/operators/views.ts eventView). */
export interface LiveEvent {
  Kind: 'message' | 'state' | 'forgotten' | 'typing' | 'visitorTyping' | 'ended' | 'delta';
  BotId: string;
  UserId: string;
  Channel: string;
  At: string;
  Direction?: string;
  State?: number;
  Operator?: string | null;
  /** delta: a piece of the bot's answer while it streams, where it goes, and whether the answer broke */
  Text?: string;
  Offset?: number;
  Failed?: boolean;
  /** delta, its first piece: the user's text the answer is to (stored only with the turn) */
  Question?: string;
}
