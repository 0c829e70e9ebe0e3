// A platform's webhook request (channels.md "Inbound"): found by its ChannelId, verified before
// anything is read into the database, then each update it carries runs once as a user turn of
// the conversation `<channel>:<user>`. Replies never travel in the response: the turn writes them
// to the outbox (outbound.ts) and the answer is 200 at once.
import type { BotRecord } from '../../bots/model.js';
import type { ControlService } from '../../conversations/control-service.js';
import { STATE_BANNED, STATE_REQUESTED, STATE_TAKEN_OVER } from '../../conversations/control.js';
import type { ConversationService, UserMessage } from '../../conversations/service.js';
import { DuplicateInbound } from '../../conversations/turn-records.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { mayHoldSurrogates, wellFormed } from '../../shared/well-formed.js';
import type { InboundStorage } from './port.js';
import type { ChannelConnections } from './connections.js';
import type { ChannelConnection, InboundEvent } from './model.js';
import { boundInbound } from './inbound-bounds.js';
import { callRows } from './outbound.js';
import type { InboundAnswer, InboundRequest, MessagingPlatform } from './platform.js';

/** A banned user hears the ban message at most this often (channels.md "Pinned details"). */
const BAN_NOTICE_EVERY_MS = 3_600_000;
/** Platforms redeliver an update for a day at most (Telegram, Meta); its record is kept three. */
const KEEP_UPDATES_MS = 3 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** LastInboundAt is a hint for people, not a log: written at most this often per channel and node. */
const NOTE_INBOUND_EVERY_MS = 10_000;
/** The stored parts an SMS number is looked up in: the options listed last are among them. */
const RECENT_PARTS = 100;

export class ChannelInbound {
  constructor(
    private readonly deps: {
      store: InboundStorage;
      connections: ChannelConnections;
      conversations: ConversationService;
      /** takeovers and hand-backs made in the platform itself (Chatwoot's agents) */
      control: Pick<ControlService, 'change'>;
      metrics: Metrics;
      clock: Clock;
      /** new outbox rows were written outside a turn (acknowledgements, ban notices) */
      wakeDispatcher: () => void;
      onError?: (error: unknown) => void;
    },
  ) {}

  private prunedAt = 0;
  private readonly notedAt = new Map<string, number>();

  /** Forgets the records of updates too old to be redelivered (a maintenance chore; cheap when not due). */
  async pruneSeen(): Promise<void> {
    const now = this.deps.clock.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.deps.store.channels.pruneSeen(now - KEEP_UPDATES_MS);
  }

  /** Meta's subscription handshake: the challenge to echo back. */
  async handshake(channelName: string, channelId: string, query: Record<string, string>): Promise<string> {
    const platform = this.deps.connections.platform(channelName);
    const connection = await this.connectionOf(platform, channelId);
    const challenge = platform.challenge?.(query, connection.credentials!) ?? null;
    if (challenge === null) throw new AppError('VERIFY_TOKEN_MISMATCH');
    return challenge;
  }

  /**
   * Verifies and runs one webhook request; resolves when its updates have run (or were skipped),
   * with what to answer when the platform wants more than `{ok: true}`.
   */
  async receive(channelName: string, channelId: string, request: InboundRequest): Promise<InboundAnswer | null> {
    const platform = this.deps.connections.platform(channelName);
    const subpath = request.subpath ?? '';
    if (subpath !== '' && !platform.subpaths?.includes(subpath)) throw new AppError('NOT_FOUND', 'This channel is not connected.');
    const connection = await this.connectionOf(platform, channelId);
    const credentials = connection.credentials!;
    const url = `${this.deps.connections.webhookUrl(platform.channel, channelId)}${subpath === '' ? '' : `/${subpath}`}`;
    if (!(await platform.verify({ ...request, receivedAt: this.deps.clock.now(), url }, credentials))) {
      this.deps.metrics.channelUpdates.inc({ channel: platform.channel, outcome: 'refused' });
      throw new AppError('SIGNATURE_INVALID');
    }
    const body = platform.decode ? wellFormedBody(platform.decode(request)) : jsonOf(request.rawBody);
    const answer = platform.answer?.(body) ?? null;
    const bot = await this.deps.store.bots.byId(connection.botId);
    if (!bot) throw new AppError('NOT_FOUND', 'This channel is not connected.');
    const parsed = platform.parse(body, connection.account, credentials);
    const events = parsed.map(boundInbound).filter((event) => event !== null);
    await this.noteInbound(connection.channelId);
    // a request that asks nothing counts once; each update dropped for its bounds once
    const ignored = parsed.length === 0 ? 1 : parsed.length - events.length;
    if (ignored > 0) this.deps.metrics.channelUpdates.inc({ channel: platform.channel, outcome: 'ignored' }, ignored);
    // One request may carry several updates (Meta batches them): in order, each on its own.
    for (const event of events) await this.run(platform, connection, bot, event);
    return answer;
  }

  private async noteInbound(channelId: string): Promise<void> {
    const now = this.deps.clock.now();
    if (now - (this.notedAt.get(channelId) ?? 0) < NOTE_INBOUND_EVERY_MS) return;
    if (this.notedAt.size > 10_000) this.notedAt.clear();
    this.notedAt.set(channelId, now);
    await this.deps.store.channels.noteInbound(channelId, now);
  }

  private async connectionOf(platform: MessagingPlatform, channelId: string): Promise<ChannelConnection> {
    const connection = channelId.length <= 64 ? await this.deps.store.channels.byChannelId(platform.channel, channelId) : null;
    if (!connection?.credentials) throw new AppError('NOT_FOUND', 'This channel is not connected.');
    return connection;
  }

  private async run(platform: MessagingPlatform, connection: ChannelConnection, bot: BotRecord, received: InboundEvent): Promise<void> {
    const count = (outcome: string) => this.deps.metrics.channelUpdates.inc({ channel: platform.channel, outcome });
    if (await this.deps.store.channels.seen(connection.channelId, received.key)) return count('duplicate');
    if (received.kind === 'takeover' || received.kind === 'release') return this.control(platform, bot, received);
    const event = await this.chosen(platform, bot, received);
    const message: UserMessage = {
      ...(event.kind === 'click' ? { command: event.payload } : event.kind === 'reset' ? { command: 'RESET' } : { text: event.text }),
      variables: Object.entries(event.profile).map(([Name, Value]) => ({ Name, Value })),
      tags: [],
      dropTags: [],
      newChannel: platform.channel,
      inbound: { channelId: connection.channelId, key: event.key, messageId: event.messageId, replyAddress: event.replyAddress },
    };
    try {
      await this.deps.conversations.say(bot, event.userId, message);
      count('run');
    } catch (error) {
      if (error instanceof DuplicateInbound) return count('duplicate');
      if (error instanceof AppError && error.code === 'USER_BANNED') {
        count('banned');
        await this.noticeBan(platform, bot, event, error.extra.BanMessage);
      } else if (error instanceof AppError && error.code === 'CONVERSATION_FORGETTING') {
        count('ignored');
      } else {
        // The platform retries a request that failed; one update that cannot run must not block
        // the others, so it is logged and answered like the rest.
        count('failed');
        this.deps.onError?.(error);
      }
    }
    await this.acknowledge(platform, bot, event);
  }

  /**
   * Chatwoot's agents opened the conversation (a person took it: the bot is silent, ControlType 2)
   * or set it back to pending (the bot answers again). A conversation the bot never had, or already
   * in that state, is left alone: so a redelivered event changes nothing.
   */
  private async control(platform: MessagingPlatform, bot: BotRecord, event: InboundEvent): Promise<void> {
    const conversation = await this.deps.conversations.find(bot, event.userId);
    const takenOver = conversation?.controlState === STATE_TAKEN_OVER;
    const wanted = event.kind === 'takeover' ? !takenOver && conversation?.controlState !== STATE_BANNED : takenOver || conversation?.controlState === STATE_REQUESTED;
    if (!conversation || !wanted) return void this.deps.metrics.channelUpdates.inc({ channel: platform.channel, outcome: 'ignored' });
    try {
      await this.deps.control.change(bot, event.userId, event.kind === 'takeover' ? { state: 'takeover', operator: platform.channel } : { state: 'handover', mode: '*' });
      this.deps.metrics.channelUpdates.inc({ channel: platform.channel, outcome: 'run' });
    } catch (error) {
      this.deps.onError?.(error);
    }
  }

  /** A text that names one of the options an SMS conversation was last shown is that button's click. */
  private async chosen(platform: MessagingPlatform, bot: BotRecord, event: InboundEvent): Promise<InboundEvent> {
    if (!platform.choose || event.kind !== 'text' || !event.text) return event;
    const conversation = await this.deps.conversations.find(bot, event.userId);
    if (!conversation) return event;
    const payload = platform.choose(event.text, await this.deps.store.conversations.historyParts(conversation.id, RECENT_PARTS));
    return payload === null ? event : { ...event, kind: 'click', payload };
  }

  /** Telegram wants a clicked button's callback answered, or the client keeps spinning. */
  private async acknowledge(platform: MessagingPlatform, bot: BotRecord, event: InboundEvent): Promise<void> {
    const calls = platform.acknowledge?.(event) ?? [];
    if (calls.length === 0) return;
    const conversation = await this.deps.conversations.find(bot, event.userId);
    if (!conversation) return;
    await this.deps.store.transaction(async (tx) => {
      for (const row of callRows(bot, conversation, calls, this.deps.clock.now())) await tx.outbox.insert(row);
    });
    this.deps.wakeDispatcher();
  }

  /** Nothing runs and nothing is stored for a banned user; they hear the ban message once an hour at most. */
  private async noticeBan(platform: MessagingPlatform, bot: BotRecord, event: InboundEvent, banMessage: unknown): Promise<void> {
    if (typeof banMessage !== 'string' || banMessage.trim() === '') return;
    const conversation = await this.deps.conversations.find(bot, event.userId);
    if (!conversation) return;
    const now = this.deps.clock.now();
    const text = { Type: 0, Text: banMessage, Command: null, TypeDelay: 0, BehaviourName: '', InteractionName: '', Parts: [] };
    const rows = callRows(bot, conversation, platform.render([text], event.userId.slice(platform.channel.length + 1)), now);
    const claimed = await this.deps.store.transaction(async (tx) => {
      if (!(await tx.channels.claimBanNotice(conversation.id, now, BAN_NOTICE_EVERY_MS))) return false;
      for (const row of rows) await tx.outbox.insert(row);
      return true;
    });
    if (claimed) this.deps.wakeDispatcher();
  }
}

function jsonOf(rawBody: Buffer): unknown {
  try {
    const text = rawBody.toString('utf8');
    return mayHoldSurrogates(text) ? wellFormed(JSON.parse(text)) : JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON');
  }
}

/** A platform's own decoding (form fields, a JSON field inside them): undefined is a malformed body. */
function wellFormedBody(body: unknown): unknown {
  if (body === undefined) throw new AppError('INVALID_JSON');
  return wellFormed(body);
}
