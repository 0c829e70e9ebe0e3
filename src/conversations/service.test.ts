// The conversation service's intents over the in-memory storage port (no database): what each
// intent commits, that control changes go through the state machine inside a turn, and that a
// turn lost to another writer is decided again on the fresh state.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BotRecord } from '../bots/model.js';
import { behaviour, interaction, makeBot } from '../engine/test-kit.js';
import { Metrics } from '../observability/metrics.js';
import { clockFrom } from '../shared/clock.js';
import { MemoryStorage } from '../../test/support/memory-storage.js';
import { ControlService } from './control-service.js';
import { InProcessEventBus, type ConversationEvent } from './events.js';
import { ConversationService } from './service.js';
import { ConversationTurns } from './turns.js';

const bot = { id: 'bot-1', accountId: 'acc-1', apiKey: 'key-1', settings: {} } as unknown as BotRecord;
const compiled = makeBot([behaviour('Main', [interaction('Welcome', [{ type: 'text', text: 'Hi there' }]), interaction('Fallback', [{ type: 'text', text: 'Sorry?' }], { fallback: true })])]);
const metrics = new Metrics(async () => ({}));

function world(now: () => number = () => Date.parse('2026-11-22T10:00:00Z'), cachedConversations?: number) {
  const storage = new MemoryStorage(new Map([[bot.id, bot]]));
  const clock = clockFrom(now);
  const events = new InProcessEventBus();
  const seen: ConversationEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const turns = new ConversationTurns(storage, clock, events, undefined, undefined, cachedConversations);
  const forgotten: string[] = [];
  const conversations = new ConversationService({
    store: storage,
    live: { get: async () => compiled },
    clock,
    turns,
    metrics,
    config: { allowPrivateNetwork: false },
    forget: (c) => forgotten.push(c.userId),
    shares: {
      newShare: () => {
        throw new Error('no shares in these tests');
      },
      url: (code) => `http://test/share/${code}`,
    },
  });
  const control = new ControlService(storage, turns, clock, (c) => forgotten.push(c.userId));
  return { storage, conversations, control, seen, forgotten };
}

const texts = (parts: { Text: string | null }[]) => parts.map((p) => p.Text);
const NO_VALUES = { variables: [], tags: [], dropTags: [] };

describe('conversation service (in memory)', () => {
  test('say: a new user starts at the welcome; a text runs the fallback; the history holds both turns', async () => {
    const { storage, conversations, seen } = world();
    const first = await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    assert.deepEqual(texts(first.Parts), ['Hi there']);
    const second = await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'what?' });
    assert.deepEqual(texts(second.Parts), ['Sorry?']);
    const stored = (await storage.conversations.byUser(bot.id, 'ann'))!;
    assert.equal(stored.channel, 'custom');
    assert.equal(stored.revision, 1, 'inserted, then saved once');
    assert.deepEqual(texts(await storage.conversations.historyParts(stored.id)), ['Hi there', 'what?', 'Sorry?']);
    assert.deepEqual(
      seen.filter((e) => e.kind === 'message').map((e) => e.kind === 'message' && e.direction),
      ['BOT', 'USER', 'BOT'],
    );
  });

  test('inject: an operator line is stored and queued for PENDING; takePending hands it out once', async () => {
    const { conversations } = world();
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    const ann = (await conversations.find(bot, 'ann'))!;
    const injected = await conversations.inject(bot, ann, { direction: 'OPERATOR', text: 'Ann here' });
    assert.deepEqual(texts(injected.Parts), ['Ann here']);
    const pending = await conversations.takePending(bot, 'ann', (await conversations.find(bot, 'ann'))!);
    assert.deepEqual(texts(pending.Parts), ['Ann here']);
    assert.deepEqual(texts((await conversations.takePending(bot, 'ann', (await conversations.find(bot, 'ann'))!)).Parts), []);
  });

  test('changeValues refuses a system variable and changes nothing; history with a limit', async () => {
    const { conversations } = world();
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    await assert.rejects(conversations.changeValues(bot, 'ann', { ...NO_VALUES, variables: [{ Name: 'user_id', Value: 'x' }] }), { code: 'INVALID_REQUEST' });
    const changed = await conversations.changeValues(bot, 'ann', { variables: [{ Name: 'color', Value: 'red' }], tags: ['vip'], dropTags: [] });
    assert.equal(changed.state.variables.color, 'red');
    assert.equal(changed.state.variables.user_id, 'ann');
    const last = await conversations.history(bot, (await conversations.find(bot, 'ann'))!, 1);
    assert.deepEqual(texts(last.Parts), ['Hi there']);
  });

  test('control: a ban bounces the next message (403), and its lift by time leaves a state event', async () => {
    let now = Date.parse('2026-11-22T10:00:00Z');
    const { conversations, control, seen } = world(() => now);
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    const banned = await control.change(bot, 'ann', { state: 'ban', days: 1, message: 'Bye' });
    assert.equal(banned.State, 3);
    await assert.rejects(conversations.say(bot, 'ann', { ...NO_VALUES, text: 'hello?' }), { code: 'USER_BANNED' });
    now = Date.parse('2026-11-24T00:00:00Z');
    assert.equal(await control.liftEndedBans(), 1);
    assert.deepEqual(texts((await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'back' })).Parts), ['Sorry?']);
    const states = seen.filter((e) => e.kind === 'state').map((e) => e.kind === 'state' && e.state);
    assert.deepEqual(states, [0, 3, 0], 'start, ban, lift');
  });

  test('a turn that loses the revision race is decided again on the fresh state', async () => {
    // no cached copy: the turn reads the conversation, and another node saves it before the write
    const { storage, conversations } = world(undefined, 0);
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    const ann = (await storage.conversations.byUser(bot.id, 'ann'))!;
    const original = storage.conversations.byUser;
    let reads = 0;
    storage.conversations.byUser = async (botId, userId) => {
      const read = await original(botId, userId);
      if (reads++ === 0 && read) {
        await storage.transaction((tx) => tx.conversations.save({ ...read, state: { ...read.state, variables: { ...read.state.variables, other: 'node' } } }));
      }
      return read;
    };
    await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'hi' });
    assert.equal(reads, 2, 'read, lost the race, read again');
    const after = (await original(bot.id, 'ann'))!;
    assert.equal(after.state.variables.other, 'node', "the other node's write survived");
    assert.equal(after.state.variables.last_user_text, 'hi');
    assert.equal(after.revision, ann.revision + 2);
  });

  test("a turn starts from this node's own copy of the conversation, and a stale copy costs a fresh read, never a lost write", async () => {
    const { storage, conversations } = world();
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    const original = storage.conversations.byUser;
    let reads = 0;
    storage.conversations.byUser = async (botId, userId) => (reads++, original(botId, userId));
    await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'one' });
    assert.equal(reads, 0, 'the copy this node committed was used');
    // another node (or process) saves the conversation: this node's copy is now stale
    const ann = (await original(bot.id, 'ann'))!;
    await storage.transaction((tx) => tx.conversations.save({ ...ann, state: { ...ann.state, variables: { ...ann.state.variables, other: 'node' } } }));
    await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'two' });
    assert.equal(reads, 1, 'the stale copy lost the revision check; the turn read the conversation and ran again');
    const after = (await original(bot.id, 'ann'))!;
    assert.equal(after.state.variables.other, 'node', "the other node's write survived");
    assert.equal(after.state.variables.last_user_text, 'two');
    assert.equal(after.revision, ann.revision + 2);
    // a conversation found stale is read from the database for a while (nodes taking turns at it)
    await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'three' });
    assert.equal(reads, 2);
  });

  test("a messaging conversation's platform calls are planned once per turn and written with it", async () => {
    const storage = new MemoryStorage(new Map([[bot.id, bot]]));
    const clock = clockFrom(() => Date.parse('2026-11-22T10:00:00Z'));
    let plans = 0;
    const turns = new ConversationTurns(storage, clock, new InProcessEventBus(), undefined, (_bot, conversation, messages, now) => {
      plans++;
      return [
        {
          deliveryId: `d${plans}`,
          botId: bot.id,
          conversationId: conversation.id,
          userId: conversation.userId,
          event: 'telegram',
          body: JSON.stringify(messages.length),
          createdAt: now,
          target: 'channel',
        },
      ];
    });
    const conversations = new ConversationService({
      store: storage,
      live: { get: async () => compiled },
      clock,
      turns,
      metrics,
      config: { allowPrivateNetwork: false },
      forget: () => undefined,
      shares: {
        newShare: () => {
          throw new Error('no shares');
        },
        url: (code) => code,
      },
    });
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    assert.equal(plans, 1, 'the new conversation: planned in the transaction, once it has its id');
    await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'hi' });
    assert.equal(plans, 2, 'an existing conversation: planned once, not again in the transaction');
    assert.deepEqual(
      storage.outbox.map((row) => row.deliveryId),
      ['d1', 'd2'],
    );
  });

  test('a retried turn reuses the answers of its classify and ai requests: the provider is called once', async () => {
    const aiBot = makeBot(
      [behaviour('Main', [interaction('Welcome', [{ type: 'text', text: 'Hi there' }]), interaction('Fallback', [{ type: 'ai', mode: 'reply', say: true }], { fallback: true })])],
      { nlp: { intents: [{ name: 'greet', examples: ['hello', 'hi'] }] } },
    );
    const storage = new MemoryStorage(new Map([[bot.id, bot]]));
    const clock = clockFrom(() => Date.parse('2026-11-22T10:00:00Z'));
    // no cached copy, so that the race below happens between the turn's read and its write
    const turns = new ConversationTurns(storage, clock, new InProcessEventBus(), undefined, undefined, 0);
    const calls = { classify: 0, ai: 0 };
    const conversations = new ConversationService({
      store: storage,
      live: { get: async () => aiBot },
      clock,
      turns,
      metrics,
      config: { allowPrivateNetwork: false },
      forget: () => undefined,
      shares: {
        newShare: () => {
          throw new Error('no shares');
        },
        url: (code) => code,
      },
      classifierOf: () => ({ classify: async () => (calls.classify++, { intents: [{ intent: 'greet', score: 0.1 }] }) }),
      ai: async () => (calls.ai++, { status: 'OK', text: `answer ${calls.ai}`, tokens: 5 }),
    });
    await conversations.say(bot, 'ann', { ...NO_VALUES, command: 'RESET' });
    const original = storage.conversations.byUser;
    let raced = false;
    storage.conversations.byUser = async (botId, userId) => {
      const read = await original(botId, userId);
      if (!raced && read) {
        raced = true;
        await storage.transaction((tx) => tx.conversations.save({ ...read }));
      }
      return read;
    };
    const reply = await conversations.say(bot, 'ann', { ...NO_VALUES, text: 'what is the meaning of life' });
    assert.ok(raced, 'the first attempt lost the race and was decided again');
    assert.deepEqual(texts(reply.Parts), ['answer 1']);
    assert.deepEqual(calls, { classify: 1, ai: 1 });
    const stored = (await original(bot.id, 'ann'))!;
    assert.equal(stored.state.variables.last_intent, '');
    assert.equal(stored.state.variables.ai_status, 'OK');
  });
});
