// Turn-level rules of bot-format.md "How a turn runs" that are not about one action type:
// triggers, fallbacks, start/goto/command inputs, the loop guards and robustness on bad bots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from './bot-file.js';
import { compileBot } from './compile.js';
import { runTurn } from './run-turn.js';
import { newConversationState } from './state.js';
import { behaviour, botWith, Conversation, drive, goTo, interaction, makeBot, say, started, summary, texts, trigger } from './test-kit.js';

const INPUT = '12121212-1212-4121-8121-121212121212';
const ask = (extra: Partial<Action> = {}): Action => ({ type: 'input', id: INPUT, question: 'Name?', expect: 'any', variable: 'name', onSuccess: [say('Hi {{name}}')], ...extra });

function triggerBot() {
  return makeBot(
    [
      behaviour('Main', [interaction('Start', [say('start')]), interaction('Sorry', [say('main sorry')], { fallback: true })], {
        triggers: [trigger('help|assist', [say('behaviour help')]), trigger({ regex: '^order \\d+' }, [say('order {{order}}')], { variable: 'order' })],
      }),
      behaviour('Quiet', [interaction('Q', [say('quiet')])]),
      behaviour('Asking', [interaction('Ask', [ask()]), interaction('Other', [say('other')])], {
        triggers: [trigger('cancel', [goTo('Asking', 'Other')], { whileWaiting: true }), trigger('what', [say('just type your name')], { whileWaiting: true })],
      }),
    ],
    { triggers: [trigger('help|menu', [say('bot help')]), trigger({ regex: 'bye' }, [say('bot bye')])] },
  );
}

test('triggers: behaviour triggers before bot triggers, first match wins', () => {
  const [chat] = started(triggerBot());
  assert.deepEqual(texts(chat.say('HELP')), ['behaviour help']);
  assert.deepEqual(texts(chat.say('menu')), ['bot help']);
  assert.equal(chat.where, 'Main/Start'); // a trigger without goTo does not move
  const elsewhere = new Conversation(triggerBot());
  elsewhere.goTo('Quiet');
  assert.deepEqual(texts(elsewhere.say('help')), ['bot help']); // Quiet has no triggers of its own
});

test('triggers: alternatives match the whole text, a regex searches; the text goes into variable', () => {
  const [chat] = started(triggerBot());
  assert.deepEqual(texts(chat.say('I need help')), ['main sorry']);
  assert.deepEqual(texts(chat.say('OK, bye then')), ['bot bye']);
  const order = chat.say('Order 42 please');
  assert.deepEqual(texts(order), ['order Order 42 please']);
  assert.equal(chat.variables.order, 'Order 42 please');
  assert.deepEqual(
    order.parts.map((p) => p.InteractionName),
    ['Sorry'],
  ); // runs where the conversation is
});

test('triggers are skipped while an input waits, unless whileWaiting', () => {
  const chat = new Conversation(triggerBot());
  chat.goTo('Asking');
  assert.deepEqual(texts(chat.say('help')), ['Hi help']); // the input takes it
  chat.goTo('Asking');
  assert.deepEqual(texts(chat.say('what')), ['just type your name']);
  assert.deepEqual(chat.state.waiting, { actionId: INPUT, wrongAnswers: 0 }); // still waiting
  assert.deepEqual(texts(chat.say('Ann')), ['Hi Ann']);
  chat.goTo('Asking');
  assert.deepEqual(texts(chat.say('cancel')), ['other']);
  assert.equal(chat.state.waiting, null); // moving away ends the wait
  assert.equal(chat.where, 'Asking/Other');
});

test('user text without trigger runs the current behaviour fallback, else the start behaviour fallback', () => {
  const bot = makeBot([
    behaviour('Main', [interaction('Start', [say('start')]), interaction('Sorry', [say('main sorry')], { fallback: true })]),
    behaviour('Own', [interaction('O', [say('own')]), interaction('Huh', [say('own sorry')], { fallback: true })]),
    behaviour('None', [interaction('N', [say('none')])]),
  ]);
  const chat = new Conversation(bot);
  chat.goTo('Own');
  assert.deepEqual(texts(chat.say('x')), ['own sorry']);
  assert.equal(chat.where, 'Own/Huh');
  chat.goTo('None');
  assert.deepEqual(texts(chat.say('x')), ['main sorry']);
  assert.equal(chat.where, 'Main/Sorry');
  assert.equal(chat.variables.last_user_text, 'x');
});

test('no fallback anywhere: an empty reply and the position stays', () => {
  const [chat] = started(botWith([say('start')], [], {}));
  const outcome = chat.say('anything');
  assert.deepEqual(outcome.parts, []);
  assert.equal(chat.where, 'Main/Start');
  assert.equal(outcome.enableUserChat, true);
});

test('start (RESET) runs the start interaction, clears position and input, keeps variables and tags', () => {
  const bot = makeBot([behaviour('Main', [interaction('Start', [say('start')]), interaction('Ask', [ask()])]), behaviour('Second', [interaction('Entry', [say('second')])], { start: true })]);
  const chat = new Conversation(bot, { keep: 'me' });
  assert.deepEqual(texts(chat.start()), ['second']);
  chat.goTo('Main', 'Ask');
  chat.state.tags.push('t');
  const outcome = chat.start();
  assert.deepEqual(summary(outcome), [[0, 'second', null, 100]]);
  assert.equal(chat.state.waiting, null);
  assert.equal(chat.state.previous, null);
  assert.equal(chat.where, 'Second/Entry');
  assert.equal(chat.variables.keep, 'me');
  assert.deepEqual(chat.state.tags, ['t']);
});

test('start with text tries the start behaviour triggers and the bot triggers before the start interaction', () => {
  const bot = makeBot(
    [
      behaviour('Main', [interaction('Start', [say('welcome')]), interaction('Shop', [say('shop')])], {
        triggers: [trigger('shop', [goTo('Main', 'Shop')])],
      }),
    ],
    { triggers: [trigger({ regex: 'hello' }, [say('hello to you')], { variable: 'greeting' })] },
  );
  const a = new Conversation(bot);
  assert.deepEqual(texts(a.start('SHOP')), ['shop']);
  assert.equal(a.where, 'Main/Shop');
  const b = new Conversation(bot);
  const hello = b.start('well hello');
  assert.deepEqual(
    hello.parts.map((p) => [p.Text, p.InteractionName]),
    [['hello to you', 'Start']],
  );
  assert.equal(b.variables.greeting, 'well hello');
  assert.equal(b.where, 'Main/Start');
  const c = new Conversation(bot);
  assert.deepEqual(texts(c.start('nothing special')), ['welcome']);
  assert.equal(c.variables.last_user_text, 'nothing special');
});

test('forced goto: by name, interaction absent = behaviour start, unknown names = start of the start behaviour', () => {
  const bot = makeBot([
    behaviour('Main', [interaction('Start', [say('start')]), interaction('Ask', [ask()])]),
    behaviour('Other', [interaction('Begin', [say('begin')]), interaction('Deep', [say('deep')])]),
  ]);
  const [chat] = started(bot);
  assert.deepEqual(texts(chat.goTo('other', 'deep')), ['deep']);
  assert.equal(chat.variables.goto_source_interaction, 'Start');
  assert.deepEqual(texts(chat.goTo('Other')), ['begin']);
  assert.deepEqual(texts(chat.goTo('Nope', 'Deep')), ['start']);
  assert.deepEqual(texts(chat.goTo('Other', 'Nope')), ['start']);
  chat.goTo('Main', 'Ask');
  assert.notEqual(chat.state.waiting, null);
  chat.goTo('Other', 'Deep');
  assert.equal(chat.state.waiting, null);
  assert.deepEqual(chat.state.previous, { behaviour: 'Main', interaction: 'Ask' });
});

test('a command payload clears a waiting input, even an unknown payload', () => {
  const [chat] = started(botWith([ask()], [interaction('Sorry', [say('sorry')], { fallback: true })]));
  assert.notEqual(chat.state.waiting, null);
  assert.deepEqual(texts(chat.click('no-such-button')), ['sorry']);
  assert.equal(chat.state.waiting, null);
  assert.deepEqual(texts(chat.say('Ann')), ['sorry']); // no longer an answer
});

test('loop guard: an interaction of 10,000 actions stops after 1,000', () => {
  const many = Array.from({ length: 10_000 }, (_, n) => say(`t${n}`));
  const [, outcome] = started(botWith(many));
  assert.equal(outcome.parts.length, 1000);
  assert.equal(outcome.parts[999].Text, 't999');
  assert.equal(outcome.endedBy, 'guard');
});

test('loop guard: nested operations count as actions too', () => {
  const nested: Action = { type: 'tagSwitch', tag: 'x', present: false, then: Array.from({ length: 600 }, () => say('n')) };
  const [, outcome] = started(botWith([nested, nested]));
  assert.equal(outcome.parts.length, 998); // 1 + 600, then 1 + 398 (the 1,001st action is refused)
  assert.equal(outcome.endedBy, 'guard');
});

test('loop guard: the turn stops after 10 s of wall time (fake clock)', () => {
  let t = 0;
  const clock = () => {
    const now = t;
    t += 2500; // each reading 2.5 s later: start 0, then 2.5, 5, 7.5 s run; 10 s stops
    return now;
  };
  const bot = botWith([say('a'), say('b'), say('c'), say('d'), say('e')]);
  const outcome = drive(bot, newConversationState(bot), { kind: 'start' }, { now: clock });
  assert.deepEqual(texts(outcome), ['a', 'b', 'c']);
  assert.equal(outcome.endedBy, 'guard');
});

test('a bad bot never throws: malformed actions are skipped', () => {
  const exploding = {
    type: 'text',
    get text(): string {
      throw new Error('boom');
    },
  };
  const bot = botWith([
    null as unknown as Action,
    'text' as unknown as Action,
    { type: 'noSuchAction' },
    { type: 42 } as unknown as Action,
    say('replaced below'),
    { type: 'variableSwitch', variable: 'x', criteria: 'equals', then: 'not a list' },
    say('survived'),
  ]);
  // JSON cannot hold a throwing getter, so it is put in after compiling: it stands for any action
  // whose run throws on data it did not expect.
  (bot.startBehaviour!.start!.actions as Action[])[4] = exploding;
  const [, outcome] = started(bot);
  assert.deepEqual(texts(outcome), ['survived']);
});

test('a bot without behaviours gives an empty reply', () => {
  const bot = compileBot({ format: 'colloquy/bot@1', name: 'Empty', behaviours: [] });
  for (const input of [{ kind: 'start' }, { kind: 'text', text: 'hi' }, { kind: 'command', payload: 'x' }, { kind: 'goto', behaviour: 'A' }] as const) {
    const outcome = drive(bot, newConversationState(bot), input);
    assert.deepEqual(outcome.parts, []);
    assert.equal(outcome.state.position, null);
    assert.equal(outcome.enableUserChat, true);
  }
  const garbage = compileBot({ behaviours: [null, { name: 'B' }, { interactions: 'x' }] } as never);
  assert.deepEqual(drive(garbage, newConversationState(garbage), { kind: 'start' }).parts, []);
});

test('a turn does not modify the state it was given', () => {
  const [chat] = started(
    botWith([
      ask({
        onSuccess: [
          { type: 'setVariable', name: 'n', mode: 'add', value: '1' },
          { type: 'setTag', tag: 't' },
          { type: 'privacy', enabled: true },
        ],
      }),
    ]),
  );
  const before = JSON.parse(JSON.stringify(chat.state));
  const frozen = chat.state;
  drive(chat.bot, frozen, { kind: 'text', text: 'Ann' });
  assert.deepEqual(JSON.parse(JSON.stringify(frozen)), before);
});

test('after a publish, a position whose names are gone continues at the start interaction', () => {
  const v1 = makeBot([behaviour('Main', [interaction('Start', [say('v1 start')]), interaction('Old', [ask()])])]);
  const [chat] = started(v1);
  chat.goTo('Main', 'Old');
  const v2 = makeBot([behaviour('Main', [interaction('Start', [say('v2 start')]), interaction('Sorry', [say('v2 sorry')], { fallback: true })])]);
  const outcome = drive(v2, chat.state, { kind: 'text', text: 'Ann' });
  assert.deepEqual(texts(outcome), ['v2 sorry']); // the input is gone: a plain text
  assert.equal(outcome.state.waiting, null);
  assert.deepEqual(outcome.state.previous, { behaviour: 'Main', interaction: 'Start' });
});

test('the generator answers requests in order and returns the outcome', () => {
  const bot = botWith([
    { type: 'shareUrl', mode: 'view', hours: 1 },
    { type: 'callApi', method: 'GET', url: 'https://x.org', variable: 'v' },
  ]);
  const gen = runTurn(bot, newConversationState(bot), { kind: 'start' }, { now: () => 0, random: () => 0 });
  assert.deepEqual(gen.next().value, { kind: 'shareUrl', mode: 'view', hours: 1 });
  const second = gen.next('https://share/1');
  assert.equal(!second.done && second.value.kind, 'http');
  const end = gen.next({ status: 200, body: 'b' });
  assert.equal(end.done, true);
  if (end.done) assert.deepEqual([end.value.state.variables.conversation_share_url, end.value.state.variables.v], ['https://share/1', 'b']);
});

test('a throwing action leaves a diagnostic in the outcome; the turn goes on as before', () => {
  const exploding = {
    type: 'text',
    get text(): string {
      throw new Error('boom');
    },
  };
  const onClick = {
    type: 'text',
    get text(): string {
      throw new Error('click boom');
    },
  };
  const BUTTON = '34343434-3434-4343-8343-343434343434';
  const bot = botWith([
    say('before'),
    say('replaced'),
    say('after'),
    { type: 'tagSwitch', tag: 't', present: false, then: [say('nested'), say('replaced')] },
    { type: 'button', id: BUTTON, text: 'Go', onClick: [] },
  ]);
  const start = bot.startBehaviour!.start!.actions as Action[];
  start[1] = exploding; // JSON cannot hold a throwing getter: it stands for any action that throws
  (start[3]!.then as Action[])[1] = exploding;
  (start[4]!.onClick as Action[]).push(onClick);
  const [chat, outcome] = started(bot);
  assert.deepEqual(texts(outcome), ['before', 'after', 'nested', 'Go']);
  assert.equal(outcome.endedBy, 'done');
  assert.deepEqual(outcome.diagnostics, [
    { action: 'text', at: { behaviour: 'Main', interaction: 'Start', index: 1 }, error: 'boom' },
    { action: 'text', at: { behaviour: 'Main', interaction: 'Start', index: 1 }, error: 'boom' },
  ]);
  const clicked = chat.click(BUTTON);
  assert.deepEqual(clicked.diagnostics, [{ action: 'text', at: { behaviour: 'Main', interaction: 'Start', index: 0 }, error: 'click boom' }]);
  assert.deepEqual(chat.say('hi').diagnostics, []); // a turn where nothing failed lists nothing
});
