// One chat widget: the conversation's life (start or resume, send, listen live) and the order in
// which things appear. Every part goes through one queue, so replies and live messages never
// interleave and typing pauses (`TypeDelay`, delay parts) are shown where the bot put them.
import { Api, ApiError } from './client.js';
import type { RenderContext, Who } from './parts.js';
import { T, type ChatReply, type LiveMessage, type Options, type Part } from './types.js';
import { View } from './view.js';

/** A pause longer than this is shortened: a page must not look frozen because of a bot's typo. */
const MAX_TYPING_MS = 10_000;
const TAKEN_OVER = 2;

const randomId = () => Math.random().toString(36).slice(2) + Date.now().toString(36);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** localStorage may be unavailable (privacy modes, sandboxed frames): then nothing is kept. */
const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // not kept: the next visit starts a new conversation
    }
  },
};

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
  private enableUserChat = true;
  private controlType = 0;

  constructor(private readonly options: Options & { base: string }) {
    this.api = new Api(options.base, options.bot, randomId());
    this.storageKey = `colloquy:${options.bot}:user`;
    this.userId = storage.get(this.storageKey);
    this.ctx = { command: (payload, label) => void this.send({ Command: payload }, label) };
    this.view = new View({ open: () => this.open(), close: () => this.close(), submit: (text) => void this.say(text) });
    document.body.append(this.view.host);
    void this.api.config().then((bot) => this.view.setBot(bot), () => undefined);
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
    storage.set(this.storageKey, null);
    this.started = null;
    await this.queue;
    this.view.clear();
    await this.ensureStarted();
  }

  destroy(): void {
    this.stopListening?.();
    this.view.host.remove();
  }

  private ensureStarted(): Promise<void> {
    this.started ??= this.start().catch((error: unknown) => {
      this.started = null;
      this.view.setState('failed');
      this.view.notice(describe(error, 'The chat is not available right now.'));
    });
    return this.started;
  }

  private async start(): Promise<void> {
    this.view.setState('starting');
    const known = this.userId;
    const reply = await this.api.start(known, this.options.variables ?? undefined, this.options.behaviour);
    this.userId = reply.UserId;
    storage.set(this.storageKey, reply.UserId);
    // A resumed conversation is history: shown at once. A new one plays its typing pauses.
    await this.show(reply, 'bot', reply.UserId !== known);
    this.view.setState('ready');
    this.listen(reply.UserId);
  }

  private listen(userId: string): void {
    this.stopListening = this.api.listen(userId, {
      ready: () => {
        this.view.setState('live');
        // After a dropped connection, what was said meanwhile is fetched again.
        if (this.streamOpenedBefore) void this.resync();
        this.streamOpenedBefore = true;
      },
      message: (m: LiveMessage) => void this.show(m, m.Direction === 'OPERATOR' ? 'operator' : 'bot', true),
      state: (s) => {
        if (s.State === TAKEN_OVER && this.controlType !== TAKEN_OVER) this.enqueue(async () => this.view.notice('You are now talking with a person.'));
        this.controlType = s.State;
        this.enqueue(async () => this.applyInput());
      },
      forgotten: () => void this.reset(),
      resync: () => void this.resync(),
      failed: () => this.view.setState('failed'),
    });
  }

  private async resync(): Promise<void> {
    const reply = await this.api.start(this.userId, undefined, undefined).catch(() => null);
    if (!reply) return;
    if (reply.UserId !== this.userId) {
      // The conversation went away while the connection was down; this is a new one.
      this.stopListening?.();
      this.userId = reply.UserId;
      storage.set(this.storageKey, reply.UserId);
      this.streamOpenedBefore = false;
      this.listen(reply.UserId);
    }
    this.enqueue(async () => this.view.clear());
    await this.show(reply, 'bot', false);
  }

  private async send(what: { Text: string } | { Command: string }, label: string): Promise<void> {
    await this.ensureStarted();
    if (!this.userId) return;
    this.enqueue(async () => this.view.append(userPart(label), 'user', this.ctx));
    try {
      await this.show(await this.api.send(this.userId, what), 'bot', true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CONVERSATION_NOT_FOUND') {
        // The conversation was deleted (forgotten) meanwhile: start afresh.
        await this.reset();
        return;
      }
      this.enqueue(async () => this.view.notice(describe(error, 'Your message could not be sent. Please try again.')));
    }
  }

  /** Queues a reply's parts; `animate`: honour typing pauses (not for history). */
  private show(reply: Pick<ChatReply, 'Parts' | 'EnableUserChat' | 'ControlType'>, who: Who, animate: boolean): Promise<void> {
    return this.enqueue(async () => {
      for (const part of reply.Parts) {
        const pause = animate ? Math.min(MAX_TYPING_MS, Math.max(0, part.TypeDelay || 0)) : 0;
        if (pause > 0) {
          this.view.showTyping(true);
          await sleep(pause);
          this.view.showTyping(false);
        }
        if (part.Type !== T.delay) this.view.append(part, part.Type === T.user ? 'user' : who, this.ctx, animate);
      }
      this.enableUserChat = reply.EnableUserChat;
      this.controlType = reply.ControlType;
      this.applyInput();
    });
  }

  private applyInput(): void {
    // While an operator has the conversation, the user can always write to them.
    this.view.setInputEnabled(this.enableUserChat || this.controlType === TAKEN_OVER);
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch(() => undefined);
    return this.queue;
  }
}

function userPart(text: string): Part {
  return { Type: T.user, Text: text, Command: null, TypeDelay: 0, Parts: [] };
}

function describe(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.code === 'USER_BANNED') {
    const message = error.body?.BanMessage;
    return typeof message === 'string' && message !== '' ? message : 'You cannot write in this chat.';
  }
  return fallback;
}
