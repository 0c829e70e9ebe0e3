// One chat widget: the conversation's life (start or resume, send, listen live) and the order in
// which things appear. Every part goes through one queue, so replies and live messages never
// interleave and typing pauses (`TypeDelay`, delay parts) are shown where the bot put them.
import { Api, ApiError, describe } from './client.js';
import { Control, TAKEN_OVER } from './control.js';
import { chooseLanguage, t } from './i18n.js';
import { userPart, type RenderContext, type Who } from './parts.js';
import { Delivery } from './delivery.js';
import type { Unsent, What } from './outbox.js';
import { Presence, visitorContext } from './presence.js';
import { storage } from './storage.js';
import { T, type ChatReply, type LiveMessage, type Options } from './types.js';
import { View } from './view.js';

/** A pause longer than this is shortened: a page must not look frozen because of a bot's typo. */
const MAX_TYPING_MS = 10_000;
/** Parts that ask the user something: a reply with one of these (or open to typing) makes older buttons stale. */
const ASKING = new Set<number>([T.question, T.button, T.buttons, T.card, T.carousel]);

const randomId = () => Math.random().toString(36).slice(2) + Date.now().toString(36);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Widget {
  readonly view: View;
  private readonly api: Api;
  private readonly storageKey: string;
  private readonly ctx: RenderContext;
  private userId: string | null;
  private started: Promise<void> | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stopListening: (() => void) | null = null;
  private streamOpenedBefore = false;
  private readonly control: Control;
  private readonly presence: Presence;
  /** messages waiting for the server, oldest first: sent in order once it answers again */
  private readonly delivery: Delivery;
  /** resyncs and outbox flushes run one at a time, so none sends or shows a message twice */
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly options: Options & { base: string }) {
    const lang = chooseLanguage(options.lang, document.documentElement.lang, ...(navigator.languages ?? [navigator.language]));
    this.api = new Api(options.base, options.bot, randomId(), visitorContext(options.bot, randomId));
    this.presence = new Presence(
      this.api,
      () => this.userId,
      (position, expected) => this.view.showPlace(position, expected),
    );
    this.storageKey = `colloquy:${options.bot}:user`;
    this.userId = storage.get(this.storageKey);
    this.ctx = { command: (payload, label) => void this.send({ Command: payload }, label), operatorName: () => this.control.operatorName, operatorAvatar: () => this.control.operatorAvatar };
    this.view = new View({ open: () => this.open(), close: () => this.close(), submit: (text) => void this.say(text), typed: () => this.presence.typed() });
    this.view.host.setAttribute('lang', lang);
    this.control = new Control(this.view, this.api, this.presence, () => this.userId);
    this.delivery = new Delivery(`colloquy:${options.bot}:outbox`, {
      api: this.api,
      view: this.view,
      ctx: this.ctx,
      userId: () => this.userId,
      enqueue: (work) => this.enqueue(work),
      exclusive: (work) => this.exclusive(work),
      answered: (reply) => (reply.Duplicate ? this.reshow(reply) : this.show(reply, 'bot', true)),
      restart: (waiting) => this.restartWith(waiting),
    });
    document.body.append(this.view.host);
    void this.api.config().then(
      (bot) => this.view.setBot(bot),
      () => undefined,
    );
    // A returning visitor is reconnected at once, so live messages reach a closed window (badge).
    if (this.userId || options.open) void this.ensureStarted();
    if (options.open) this.view.open(false);
  }

  open(): void {
    this.view.open();
    void this.ensureStarted();
  }

  close(): void {
    this.view.close();
  }

  /** Sends `text` as the user, as if typed. */
  async say(text: string): Promise<void> {
    if (!this.view.isOpen) this.view.open();
    await this.send({ Text: text }, text);
  }

  /** Forgets this browser's conversation and starts a new one. */
  async reset(): Promise<void> {
    this.stopListening?.();
    this.stopListening = null;
    this.streamOpenedBefore = false;
    this.userId = null;
    this.delivery.outbox.takeAll();
    this.control.told = 0;
    storage.set(this.storageKey, null);
    this.started = null;
    await this.queue;
    this.view.clear();
    await this.ensureStarted();
  }

  destroy(): void {
    this.stopListening?.();
    this.presence.stop();
    this.view.host.remove();
  }

  private ensureStarted(): Promise<void> {
    this.started ??= this.start().catch((error: unknown) => {
      this.started = null;
      this.view.setState('failed');
      if (error instanceof ApiError && error.code === 'USER_BANNED') this.control.banned();
      this.view.notice(describe(error, t.unavailable));
    });
    return this.started;
  }

  private async start(): Promise<void> {
    this.view.setState('starting');
    const known = this.userId;
    const reply = await this.api.start(known, this.options.variables ?? undefined, this.options.behaviour);
    this.userId = reply.UserId;
    this.control.setOperator(reply.OperatorName, reply.OperatorAvatar);
    storage.set(this.storageKey, reply.UserId);
    // A resumed conversation is history: shown at once. A new one plays its typing pauses.
    await this.show(reply, 'bot', reply.UserId !== known);
    // A resumed conversation that a person has taken over says so again, as it did live.
    this.enqueue(() => this.control.tell(reply.ControlType));
    this.delivery.restore(reply.UserId);
    this.view.setState('ready');
    this.listen(reply.UserId);
  }

  private listen(userId: string): void {
    this.stopListening = this.api.listen(userId, {
      ready: () => {
        this.delivery.online();
        this.view.setState('live');
        // After a dropped connection, what was said meanwhile is fetched again.
        if (this.streamOpenedBefore) void this.resync();
        else void this.exclusive(() => this.delivery.flush());
        this.streamOpenedBefore = true;
      },
      lost: () => this.delivery.offline(),
      message: (m: LiveMessage) => {
        if (m.Direction === 'OPERATOR') this.view.showOperatorTyping(null);
        void this.show(m, m.Direction === 'OPERATOR' ? 'operator' : 'bot', true);
      },
      typing: (typing) => this.view.showOperatorTyping(typing.OperatorName),
      // shown at once, not queued: the reply it belongs to is still on its way
      delta: (d) => this.view.showStreamed(d.Text, d.Offset, d.Failed === true),
      state: (s) => {
        this.enqueue(async () => this.control.setOperator(s.OperatorName, s.OperatorAvatar));
        this.enqueue(() => this.control.tell(s.State));
        this.control.type = s.State;
        this.enqueue(async () => this.control.applyInput());
      },
      forgotten: () => void this.reset(),
      resync: () => void this.resync(),
      // The stream was refused (a server error while its database restarts, a conversation that
      // went away): the browser gives up, so the widget comes back to it itself.
      failed: () => {
        this.stopListening?.();
        this.view.setState('offline');
        this.delivery.later(() => this.reconnect());
      },
    });
  }

  /** Reads the history again and listens anew; while the server is still away, tries again later. */
  private reconnect(): Promise<void> {
    return this.exclusive(async () => {
      const reply = await this.api.start(this.userId, undefined, undefined).catch(() => null);
      if (!reply) return this.delivery.later(() => this.reconnect());
      this.streamOpenedBefore = false;
      const same = reply.UserId === this.userId;
      await this.reshow(reply);
      if (same) this.listen(reply.UserId);
    });
  }

  private resync(): Promise<void> {
    return this.exclusive(async () => {
      const reply = await this.api.start(this.userId, undefined, undefined).catch(() => null);
      if (reply) await this.reshow(reply);
      await this.delivery.flush();
    });
  }

  /** Shows the history again, from scratch; messages still waiting to be sent stay at the end. */
  private async reshow(reply: ChatReply): Promise<void> {
    if (reply.UserId !== this.userId) {
      // The conversation went away while the connection was down; this is a new one.
      this.stopListening?.();
      this.userId = reply.UserId;
      storage.set(this.storageKey, reply.UserId);
      this.streamOpenedBefore = false;
      this.listen(reply.UserId);
    }
    this.enqueue(async () => {
      this.view.clear();
      this.control.told = 0;
    });
    await this.show(reply, 'bot', false);
    await this.enqueue(async () => {
      await this.control.tell(reply.ControlType);
      for (const unsent of this.delivery.outbox.all) if (unsent.row) this.view.appendRow(unsent.row);
    });
  }

  private async send(what: What, label: string): Promise<void> {
    await this.ensureStarted();
    if (!this.userId) return;
    // Kept (in the page's storage too) before it is sent: nothing typed is lost, whatever happens next.
    const unsent: Unsent = { id: randomId(), userId: this.userId, what, label };
    this.delivery.outbox.add(unsent);
    this.enqueue(async () => void (unsent.row = this.view.append(userPart(label), 'user', this.ctx)));
    await this.exclusive(() => this.delivery.flush());
  }

  /** The conversation was deleted (forgotten) meanwhile: a new one starts, and gets the waiting messages. */
  async restartWith(waiting: Unsent[]): Promise<void> {
    await this.reset();
    for (const unsent of waiting) void this.send(unsent.what, unsent.label);
  }

  private exclusive(work: () => Promise<void>): Promise<void> {
    this.syncing = this.syncing.then(work).catch(() => undefined);
    return this.syncing;
  }

  /** Queues a reply's parts; `animate`: honour typing pauses (not for history). */
  private show(reply: Pick<ChatReply, 'Parts' | 'EnableUserChat' | 'ControlType' | 'Senders' | 'Times' | 'StateSince'>, who: Who, animate: boolean): Promise<void> {
    // Taken now, not after the typing pauses: a state event that arrives meanwhile is newer.
    this.control.type = reply.ControlType;
    const asks = who === 'bot' && animate && (reply.EnableUserChat || reply.Parts.some((p) => ASKING.has(p.Type)));
    return this.enqueue(async () => {
      // the whole message replaces the answer shown while it streamed
      if (who !== 'user') this.view.clearStreamed();
      if (asks) this.view.disableButtons();
      for (const [i, part] of reply.Parts.entries()) {
        const pause = animate ? Math.min(MAX_TYPING_MS, Math.max(0, part.TypeDelay || 0)) : 0;
        if (pause > 0) {
          this.view.showTyping(true);
          await sleep(pause);
          this.view.showTyping(false);
        }
        const said = reply.Times?.[i];
        // A resumed history tells when a person took over: the notice goes back where it was.
        if (said && reply.StateSince && reply.ControlType === TAKEN_OVER && said >= reply.StateSince) await this.control.tell(TAKEN_OVER);
        const sender = reply.Senders?.[i] === 'OPERATOR' ? 'operator' : who;
        if (part.Type !== T.delay) this.view.append(part, part.Type === T.user ? 'user' : sender, this.ctx, animate, said);
      }
      this.control.enableUserChat = reply.EnableUserChat;
      this.control.applyInput();
    });
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch(() => undefined);
    return this.queue;
  }
}
