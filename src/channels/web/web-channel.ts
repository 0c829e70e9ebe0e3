// The web channel (the embeddable widget's server side). Its only credential is the bot's public
// web key, which can chat and listen to the conversations it started, never read or control
// anything else: every call resolves the key, checks that the web channel is on and that the
// page's origin is allowed, and only ever touches conversations on the `web` channel.
import type { ChatReply, ConversationService } from '../../conversations/service.js';
import type { Config } from '../../config.js';
import { DEFAULT_WIDGET_COLOR } from '../../bots/widget-look.js';

export interface WidgetConfig {
  Name: string;
  Avatar: string;
  Color: string;
  Greeting: string;
  Position: 'right' | 'left';
}
import { withEventOrigin, type ConversationEvent, type EventBus } from '../../conversations/events.js';
import type { VariableUpdate } from '../../conversations/values.js';
import { DuplicateInbound } from '../../conversations/turn-records.js';
import { isSystemVariable } from '../../engine/state.js';
import type { ReplyPart } from '../../engine/types.js';
import { STATE_TAKEN_OVER } from '../../conversations/control.js';
import { AppError } from '../../shared/errors.js';
import type { WebChannelStorage } from './port.js';
import { DEMO_WEB_KEY_META } from './demo-page.js';
import type { WebVisitorContext } from './model.js';
import { originAllowed } from './origins.js';
import { WebVisitors } from './visitors.js';
import type { ConversationRecord } from '../../conversations/model.js';
import type { AccountRecord } from '../../accounts/model.js';
import type { BotRecord } from '../../bots/model.js';

export const WEB_CHANNEL = 'web';

export interface WebPrincipal {
  account: AccountRecord;
  bot: BotRecord;
}

export interface StartRequest {
  /** the id the browser kept from an earlier visit */
  userId?: string;
  variables: VariableUpdate[];
  behaviour?: string;
  clientId?: string;
  /** what the page says about the visitor (bounded by the route) */
  context?: WebVisitorContext;
}

export interface SendRequest {
  userId: string;
  text?: string;
  command?: string;
  clientId?: string;
  /** the widget's id for this message: sent again after a lost answer, it runs once */
  messageId?: string;
}

/** What a live stream delivers: a named SSE event and its JSON data. */
export type LiveDelivery =
  | { event: 'message'; data: { Direction: string; Parts: ReplyPart[]; EnableUserChat: boolean; ControlType: number; At: string } }
  | { event: 'state'; data: { State: number; OperatorName: string | null; OperatorAvatar: string | null } }
  | { event: 'forgotten'; data: Record<string, never> }
  | { event: 'typing'; data: { OperatorName: string } }
  /** a piece of the bot's answer while it streams (Offset 0 starts it again; Failed: take it back) */
  | { event: 'delta'; data: { Text: string; Offset: number; Failed?: true } }
  /** a message too large to be relayed between nodes: the widget re-reads the history */
  | { event: 'resync'; data: Record<string, never> };

export interface WebChannelDeps {
  store: WebChannelStorage;
  conversations: ConversationService;
  events: EventBus;
  config: Pick<Config, 'publicUrl'>;
  clock: { iso(ms: number): string; now(): number };
}

const NO_VALUES = { variables: [], tags: [], dropTags: [] };

export class WebChannel {
  /** How often an idle live stream sends a comment line, so proxies and browsers keep it open. */
  heartbeatMs = 15_000;
  private readonly visitors: WebVisitors;

  constructor(private readonly deps: WebChannelDeps) {
    this.visitors = new WebVisitors({ store: deps.store, events: deps.events, clock: deps.clock });
  }

  /**
   * The bot behind a web key: 404 BOT_NOT_FOUND for an unknown key, 403 ORIGIN_FORBIDDEN when
   * its web channel is off or the page's origin is not allowed (docs/errors.md). `origin` is the
   * browser's Origin header: absent for same-origin GETs and for clients that are not browsers,
   * which CORS does not concern (the key is public; the origin check protects sites, not data).
   */
  async open(webKey: string, origin: string | undefined): Promise<WebPrincipal> {
    const bot = await this.deps.store.bots.byWebKey(webKey);
    if (!bot) throw new AppError('BOT_NOT_FOUND', 'No bot has this web key.');
    const web = bot.settings.channels?.web;
    if (web?.enabled !== true) throw new AppError('ORIGIN_FORBIDDEN', "This bot's web channel is turned off.");
    if (origin !== undefined && !originAllowed(web.allowedOrigins ?? [], origin)) {
      throw new AppError('ORIGIN_FORBIDDEN', `The origin ${origin} may not use this bot's web channel.`);
    }
    const account = await this.deps.store.accounts.byId(bot.accountId);
    if (!account) throw new AppError('BOT_NOT_FOUND', 'No bot has this web key.');
    return { account, bot };
  }

  /** The web key of the demo bot, remembered when the demo was seeded (null without a demo). */
  demoWebKey(): Promise<string | null> {
    return this.deps.store.meta.get(DEMO_WEB_KEY_META);
  }

  rememberDemoWebKey(webKey: string): Promise<void> {
    return this.deps.store.meta.set(DEMO_WEB_KEY_META, webKey);
  }

  /** What the widget shows: its title and picture, colour, greeting and side (settings.channels.web). */
  config(bot: BotRecord): WidgetConfig {
    const base = `${this.deps.config.publicUrl}/`;
    const web = bot.settings.channels?.web ?? {};
    return {
      Name: web.title || bot.name,
      Avatar: bot.avatar ? new URL(bot.avatar, base).toString() : new URL('avatar.svg', base).toString(),
      Color: web.color ?? DEFAULT_WIDGET_COLOR,
      Greeting: web.greeting ?? '',
      Position: web.position === 'left' ? 'left' : 'right',
    };
  }

  /**
   * Resumes the browser's conversation (its READY history) or starts a new one on the web
   * channel. A user id the bot does not know on this channel is not adopted: new web
   * conversations always get a server-made id, so a page cannot squat ids that an integrator
   * uses on the custom channel, nor guess its way into someone else's conversation.
   */
  async start({ bot }: WebPrincipal, request: StartRequest): Promise<ChatReply & { OperatorName?: string | null }> {
    const existing = request.userId ? await this.webConversation(bot, request.userId, false) : null;
    if (existing) {
      await this.visitors.note(bot, existing, request.context);
      return this.resume(bot, existing);
    }
    const reply = await this.asClient(request.clientId, () =>
      this.deps.conversations.say(bot, undefined, {
        ...NO_VALUES,
        variables: pageVariables(bot, request.variables),
        newChannel: WEB_CHANNEL,
        // A start behaviour is a forced position on the new conversation; without one, a RESET
        // runs the start interaction (a forced position together with RESET would run both).
        ...(request.behaviour ? { forcedBehaviour: request.behaviour } : { command: 'RESET' }),
      }),
    );
    if (request.context) await this.visitors.note(bot, await this.webConversation(bot, reply.UserId, true), request.context);
    return reply;
  }

  /** "The visitor is typing", for the operators (throttled); `Sent`: whether this one went out. */
  async typing({ bot }: WebPrincipal, userId: string): Promise<{ Sent: boolean }> {
    return { Sent: this.visitors.typing(await this.webConversation(bot, userId, true)) };
  }

  /**
   * A conversation waiting for a person (State 1): its place in the account's queue, 1 is next,
   * and how long the bot's operators usually take to reply (null when not waiting, or unknown).
   */
  async queue({ bot }: WebPrincipal, userId: string): Promise<{ State: number; Position: number | null; ExpectedReplySeconds: number | null }> {
    const conversation = await this.webConversation(bot, userId, true);
    const position = await this.visitors.position(bot, conversation);
    return { State: conversation.controlState, Position: position, ExpectedReplySeconds: position === null ? null : await this.visitors.expectedReplySeconds(bot) };
  }

  /** A text or a button payload from the widget, on an existing web conversation. */
  async send({ bot }: WebPrincipal, request: SendRequest): Promise<ChatReply & { Duplicate?: true }> {
    const existing = await this.webConversation(bot, request.userId, true);
    const command = request.command?.toUpperCase();
    if (command === 'READY') return this.deps.conversations.history(bot, existing);
    if (command === 'PENDING') return this.deps.conversations.takePending(bot, existing.userId, existing);
    // A message id is recorded with its turn (as a platform's update id is), so a widget that
    // sends again after an answer it never got runs nothing twice; it gets the history instead.
    const inbound = request.messageId ? { channelId: `${WEB_CHANNEL}:${bot.id}`, key: request.messageId } : undefined;
    const message = { ...NO_VALUES, text: request.text, command: request.command, inbound };
    try {
      return await this.asClient(request.clientId, () => this.deps.conversations.say(bot, existing.userId, message));
    } catch (error) {
      if (!(error instanceof DuplicateInbound)) throw error;
      return { ...(await this.resume(bot, existing)), Duplicate: true };
    }
  }

  /**
   * Listens to one web conversation: operator messages, BOT/OPERATOR injections, turns run
   * elsewhere (another tab, `POST /custom/chat` with `CHANNEL: web`), control-state changes.
   * Messages caused by `clientId` itself are skipped: that client already shows its replies.
   * Returns the function that stops listening.
   */
  async watch({ bot }: WebPrincipal, userId: string, clientId: string | undefined, deliver: (d: LiveDelivery) => void): Promise<() => void> {
    await this.webConversation(bot, userId, true);
    const own = clientId ? originOf(clientId) : undefined;
    // Deliveries wait for one another: a state event that looks its operator's name up must not
    // be overtaken by the message that follows it.
    let delivered = Promise.resolve();
    const unsubscribe = this.deps.events.subscribe((event) => {
      // (the visitor's own typing is for the operators)
      if (event.botId !== bot.id || event.userId !== userId || event.kind === 'visitorTyping') return;
      if (event.kind === 'message' && own !== undefined && event.origin === own) return;
      delivered = delivered.then(async () => deliver(await this.delivery(bot, event))).catch(() => undefined);
    });
    // Other nodes relay events only to nodes that listen: the stream is ready once they know.
    await this.deps.events.reachable?.();
    return unsubscribe;
  }

  /** The history as the widget shows it again: who said what and when, and who has the conversation. */
  private async resume(bot: BotRecord, existing: ConversationRecord): Promise<ChatReply & { OperatorName: string | null; OperatorAvatar: string | null }> {
    const reply = await this.deps.conversations.historyWithSenders(bot, existing);
    const operator = reply.ControlType === STATE_TAKEN_OVER ? existing.operator : null;
    return { ...reply, OperatorName: await this.operatorName(bot, operator), OperatorAvatar: await this.visitors.operatorAvatar(bot, operator) };
  }

  /** The name a visitor sees for the person who has the conversation: an operator's name, never an e-mail. */
  private async operatorName(bot: BotRecord, email: string | null): Promise<string | null> {
    if (!email) return null;
    return (await this.deps.store.operators.byEmail(bot.accountId, email.toLowerCase()))?.name ?? null;
  }

  private async delivery(bot: BotRecord, event: ConversationEvent): Promise<LiveDelivery> {
    if (event.kind === 'state') {
      const operator = event.state === STATE_TAKEN_OVER ? event.operator : null;
      // The visitor learns the operator's display name and picture, never their e-mail address.
      return { event: 'state', data: { State: event.state, OperatorName: await this.operatorName(bot, operator), OperatorAvatar: await this.visitors.operatorAvatar(bot, operator) } };
    }
    if (event.kind === 'forgotten') return { event: 'forgotten', data: {} };
    // The operator's name only, never an e-mail (as in the state event's OperatorName).
    if (event.kind === 'typing') return { event: 'typing', data: { OperatorName: event.operatorName } };
    // A streamed answer's piece: the visitor's own turn too (its reply comes only once the turn ends).
    if (event.kind === 'delta') return { event: 'delta', data: { Text: event.text, Offset: event.offset, ...(event.failed ? { Failed: true } : {}) } };
    // (visitorTyping never gets here: watch() keeps it from the visitor)
    if (event.kind === 'visitorTyping' || event.truncated) return { event: 'resync', data: {} };
    // The turn that wrote the message says where it left the conversation (a turn run elsewhere
    // can move it to an interaction whose EnableUserChat differs).
    const status = { EnableUserChat: event.enableUserChat, ControlType: event.controlType };
    return { event: 'message', data: { Direction: event.direction, Parts: event.parts, ...status, At: this.deps.clock.iso(event.at) } };
  }

  /**
   * The conversation of `userId` if it is on the web channel. A conversation on another channel
   * is never reachable with a web key; it answers as if it did not exist.
   */
  private async webConversation(bot: BotRecord, userId: string, required: true): Promise<ConversationRecord>;
  private async webConversation(bot: BotRecord, userId: string, required: false): Promise<ConversationRecord | null>;
  private async webConversation(bot: BotRecord, userId: string, required: boolean): Promise<ConversationRecord | null> {
    const conversation = await this.deps.store.conversations.byUser(bot.id, userId);
    const found = conversation && conversation.channel === WEB_CHANNEL && !conversation.forgetting ? conversation : null;
    if (!found && required) throw new AppError('CONVERSATION_NOT_FOUND');
    return found;
  }

  private asClient<T>(clientId: string | undefined, work: () => Promise<T>): Promise<T> {
    return clientId ? withEventOrigin(originOf(clientId), work) : work();
  }
}

const originOf = (clientId: string) => `web:${clientId}`;

/**
 * The variables a page may set on a new conversation: only those the bot lists in
 * `channels.web.acceptVariables`, never a system variable. The others are ignored, not refused:
 * the visitor did not write the page, and a widget that stopped working over a stale
 * `data-variables` would punish the wrong person (docs/decisions.md "Web channel").
 */
function pageVariables(bot: BotRecord, variables: VariableUpdate[]): VariableUpdate[] {
  const accepted = new Set(bot.settings.channels?.web?.acceptVariables ?? []);
  return variables.filter(({ Name }) => accepted.has(Name) && !isSystemVariable(Name));
}
