import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Action } from '../../bot-file.js';
import { botWith, Conversation, interaction, say, started, summary, texts } from '../../test-kit.js';
import { fitsExpect } from './expect.js';

const ID = '99999999-9999-4999-8999-999999999999';

function inputBot(extra: Partial<Action> = {}) {
  return botWith(
    [
      say('Hello'),
      { type: 'input', id: ID, question: 'How old are you?', expect: 'number', variable: 'age', onSuccess: [say('You are {{age}}')], ...extra },
      say('never: the turn halts at the input'),
    ],
    [interaction('Help', [say('help text')])],
  );
}

test('input asks its question as Type 6 and halts the turn', () => {
  const [conversation, outcome] = started(inputBot());
  assert.deepEqual(summary(outcome), [
    [0, 'Hello', null, 100],
    [6, 'How old are you?', null, 400],
  ]);
  assert.equal(outcome.endedBy, 'input');
  assert.deepEqual(conversation.state.waiting, { actionId: ID, wrongAnswers: 0 });
  assert.equal(conversation.where, 'Main/Start');
});

test('a fitting answer is stored in the variable and onSuccess runs', () => {
  const [conversation] = started(inputBot());
  const outcome = conversation.say(' 42 ');
  assert.deepEqual(summary(outcome), [[0, 'You are 42', null, 300]]);
  assert.equal(conversation.variables.age, '42');
  assert.equal(conversation.variables.last_user_text, ' 42 ');
  assert.equal(conversation.state.waiting, null);
  assert.equal(outcome.endedBy, 'done');
});

test('a wrong answer says the default wrong-answer text and asks again', () => {
  const [conversation] = started(inputBot());
  const outcome = conversation.say('old enough');
  assert.deepEqual(summary(outcome), [
    [0, "Sorry, I didn't get that.", null, 500],
    [6, 'How old are you?', null, 400],
  ]);
  assert.deepEqual(
    outcome.parts.map((p) => p.InteractionName),
    ['Start', 'Start'],
  );
  assert.deepEqual(conversation.state.waiting, { actionId: ID, wrongAnswers: 1 });
  assert.equal(conversation.variables.age, undefined);
  assert.equal(outcome.endedBy, 'input');
});

test('wrong-answer texts are picked at random and rendered', () => {
  const bot = inputBot({ wrongAnswerTexts: ['First {{name}}', 'Second {{name}}'] });
  const conversation = new Conversation(bot, { name: 'Ann' }, { random: () => 0.75 });
  conversation.start();
  assert.deepEqual(texts(conversation.say('x')), ['Second Ann', 'How old are you?']);
  conversation.options = { random: () => 0.1 };
  assert.deepEqual(texts(conversation.say('x')), ['First Ann', 'How old are you?']);
});

test('the maxWrongAnswers-th wrong answer gives up: onGiveUp runs and the variable is unset', () => {
  const [conversation] = started(inputBot({ maxWrongAnswers: 2, onGiveUp: [say('Giving up')] }), { age: 'stale' });
  assert.deepEqual(texts(conversation.say('a')), ["Sorry, I didn't get that.", 'How old are you?']);
  const outcome = conversation.say('b');
  assert.deepEqual(summary(outcome), [[0, 'Giving up', null, 200]]);
  assert.equal(Object.hasOwn(conversation.variables, 'age'), false);
  assert.equal(conversation.state.waiting, null);
});

test('without onGiveUp, giving up runs onSuccess with the variable unset', () => {
  const [conversation] = started(inputBot({ maxWrongAnswers: 1 }));
  assert.deepEqual(texts(conversation.say('nope')), ['You are ']);
  assert.equal(conversation.variables.age, undefined);
});

test('maxWrongAnswers 0 (the default) never gives up', () => {
  const [conversation] = started(inputBot({ maxWrongAnswers: 0 }));
  for (let n = 1; n <= 30; n += 1) conversation.say('nope');
  assert.deepEqual(conversation.state.waiting, { actionId: ID, wrongAnswers: 30 });
  assert.deepEqual(texts(conversation.say('7')), ['You are 7']);
});

test('an input without question waits silently and re-asks nothing', () => {
  const [conversation, outcome] = started(inputBot({ question: undefined }));
  assert.deepEqual(texts(outcome), ['Hello']);
  assert.deepEqual(texts(conversation.say('x')), ["Sorry, I didn't get that."]);
});

test('an input nested in an operation list waits too, and a goTo in onSuccess moves', () => {
  const bot = botWith(
    [
      {
        type: 'tagSwitch',
        tag: 'vip',
        present: false,
        then: [{ type: 'input', id: ID, question: 'Name?', expect: 'any', variable: 'name', onSuccess: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Help' }] }],
      },
    ],
    [interaction('Help', [say('Hi {{name}}')])],
  );
  const [conversation] = started(bot);
  assert.deepEqual(texts(conversation.say('Ann')), ['Hi Ann']);
  assert.equal(conversation.where, 'Main/Help');
});

test('an input without id cannot wait and is skipped', () => {
  const bot = botWith([{ type: 'input', question: 'Q?', expect: 'any', variable: 'v', onSuccess: [] }, say('went on')]);
  const [conversation, outcome] = started(bot);
  assert.deepEqual(texts(outcome), ['went on']);
  assert.equal(conversation.state.waiting, null);
});

test('expect kinds through a real conversation: alternatives and regex', () => {
  const alternatives = started(inputBot({ expect: 'yes|no|maybe', variable: 'answer', onSuccess: [say('ok {{answer}}')] }))[0];
  assert.deepEqual(texts(alternatives.say('perhaps')), ["Sorry, I didn't get that.", 'How old are you?']);
  assert.deepEqual(texts(alternatives.say('MayBe')), ['ok MayBe']);
  const regex = started(inputBot({ expect: { regex: '^#?\\d{6}$' }, variable: 'order', onSuccess: [say('order {{order}}')] }))[0];
  assert.deepEqual(texts(regex.say('#12345')), ["Sorry, I didn't get that.", 'How old are you?']);
  assert.deepEqual(texts(regex.say('#123456')), ['order #123456']);
});

test('expect any: any non-empty text', () => {
  assert.equal(fitsExpect('any', 'x'), true);
  assert.equal(fitsExpect('any', '   '), false);
  assert.equal(fitsExpect(undefined, 'x'), true);
});

test('expect number', () => {
  for (const ok of ['42', '-3', '+7', '3.14', '3,5', '1e3']) assert.equal(fitsExpect('number', ok), true, ok);
  for (const bad of ['forty', '4 2', '0x10', '', 'Infinity', '1.2.3']) assert.equal(fitsExpect('number', bad), false, bad);
});

test('expect email', () => {
  for (const ok of ['ann@example.org', 'a.b+c@sub.example.co.uk']) assert.equal(fitsExpect('email', ok), true, ok);
  for (const bad of ['ann@', 'ann@example', 'ann example@x.org', '@x.org', 'a@b@c.org']) assert.equal(fitsExpect('email', bad), false, bad);
});

test('expect phone', () => {
  for (const ok of ['+39 02 1234 5678', '(555) 123-4567', '0612345678', '+1.555.123.4567']) assert.equal(fitsExpect('phone', ok), true, ok);
  for (const bad of ['12345', 'call me', '+39 02 1234 5678 9999 99', '555-CALL-NOW']) assert.equal(fitsExpect('phone', bad), false, bad);
});

test('expect url', () => {
  for (const ok of ['https://example.org', 'http://example.org/a?b=c', 'www.example.org', 'example.co.uk/path']) assert.equal(fitsExpect('url', ok), true, ok);
  for (const bad of ['example', 'ftp://example.org', 'https://', 'not a url.com', 'http://localhost']) assert.equal(fitsExpect('url', bad), false, bad);
});

test('expect date: ISO or day first, real calendar days only', () => {
  for (const ok of ['2026-11-22', '22/11/2026', '22.11.2026', '1-2-2026', '2024-02-29']) assert.equal(fitsExpect('date', ok), true, ok);
  for (const bad of ['2026-13-01', '31/04/2026', '2026-02-29', 'tomorrow', '22/11/26', '2026-11-00']) assert.equal(fitsExpect('date', bad), false, bad);
});

test('expect alternatives: case-insensitive whole match; regex: case-insensitive search', () => {
  assert.equal(fitsExpect('yes|no|maybe', ' YES '), true);
  assert.equal(fitsExpect('yes|no|maybe', 'yes please'), false);
  assert.equal(fitsExpect({ regex: 'abc' }, 'xxABCxx'), true);
  assert.equal(fitsExpect({ regex: '^abc$' }, 'xxABCxx'), false);
  assert.equal(fitsExpect({ regex: '(' }, '('), false);
});
