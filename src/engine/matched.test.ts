// What took a user text (TurnOutcome.matched), which the designer's preview explains: the support
// bot's keyword, regex and intent triggers, the waiting input, and the fallback with the model's
// best guess below the threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BotFile } from './bot-file.js';
import { compileBot } from './compile.js';
import { behaviour, Conversation, goTo, interaction, makeBot, say, trigger } from './test-kit.js';
import type { ClassifyAnswer } from './types.js';

const file = JSON.parse(readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8')) as BotFile;
const bot = compileBot(file);

/** A model that knows one sentence per intent, with a fixed score; anything else scores 0.42 for track_order. */
function classify(text: string): ClassifyAnswer {
  if (text === 'where is my parcel')
    return {
      intents: [
        { intent: 'track_order', score: 0.9137 },
        { intent: 'opening_hours', score: 0.05 },
      ],
    };
  return { intents: [{ intent: 'track_order', score: 0.4213 }] };
}

function chat() {
  const c = new Conversation(bot, { user_id: 'u-1', channel: 'custom' }, { classify });
  c.start();
  return c;
}

test('a bot-level keyword trigger: its alternatives and its index in the bot list', () => {
  const c = chat();
  const outcome = c.say('agent');
  assert.deepEqual(outcome.matched, {
    kind: 'keyword',
    name: 'human|agent|operator',
    score: null,
    trigger: { behaviour: null, index: 0 },
    bestIntent: null,
    to: { behaviour: 'Escalation', interaction: 'Ask For Human' },
  });
  assert.equal(c.where, 'Escalation/Ask For Human');
});

test('a bot-level intent trigger: the intent and its score in two decimals', () => {
  const c = chat();
  const outcome = c.say('where is my parcel');
  assert.deepEqual(outcome.matched, {
    kind: 'intent',
    name: 'track_order',
    score: 0.91,
    trigger: { behaviour: null, index: 2 },
    bestIntent: null,
    to: { behaviour: 'Orders', interaction: 'Ask Number' },
  });
  assert.equal(c.where, 'Orders/Ask Number');
});

test('the waiting input took the answer (its triggers are skipped while it waits), with the best intent', () => {
  const c = chat();
  c.say('where is my parcel');
  const outcome = c.say('123456');
  assert.deepEqual(outcome.matched, { kind: 'input', name: '', score: null, trigger: null, bestIntent: { name: 'track_order', score: 0.42 }, to: { behaviour: 'Orders', interaction: 'Lookup' } });
});

test('a behaviour-level regex trigger names its behaviour and index', () => {
  const small = makeBot([
    behaviour('Main', [interaction('Start', [say('hi')]), interaction('Number', [say('a number')])], {
      start: true,
      triggers: [trigger('x', [say('x')]), trigger({ regex: '^\\d+$' }, [goTo('Main', 'Number')])],
    }),
    behaviour('Other', [interaction('Start', [say('other')])]),
  ]);
  const c = new Conversation(small, {});
  c.start();
  const outcome = c.say('42');
  assert.deepEqual(outcome.matched, { kind: 'regex', name: '^\\d+$', score: null, trigger: { behaviour: 'Main', index: 1 }, bestIntent: null, to: { behaviour: 'Main', interaction: 'Number' } });
});

test('the fallback, with the best intent that stayed below the threshold', () => {
  const c = chat();
  const outcome = c.say('tell me a joke');
  assert.deepEqual(outcome.matched, {
    kind: 'fallback',
    name: '',
    score: null,
    trigger: null,
    bestIntent: { name: 'track_order', score: 0.42 },
    to: { behaviour: 'Main', interaction: 'Not Understood' },
  });
});

test('a button, a forced position and a start without text are not explained', () => {
  const c = new Conversation(bot, { user_id: 'u-1', channel: 'custom' }, { classify });
  assert.equal(c.start().matched, null);
  assert.equal(c.goTo('Orders').matched, null);
  assert.equal(c.click('6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e02').matched, null);
});
