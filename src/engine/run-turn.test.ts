// The example support bot (assets/support.bot.json) through whole conversations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BotFile } from './bot-file.js';
import { compileBot } from './compile.js';
import { Conversation, summary } from './test-kit.js';

const file = JSON.parse(readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8')) as BotFile;
const bot = compileBot(file);
const id = (n: string) => `6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e${n}`;

function newChat() {
  return new Conversation(bot, { user_id: 'u-42', channel: 'custom' });
}

test('the welcome: texts, buttons with their payloads, chat disabled', () => {
  const chat = newChat();
  const outcome = chat.start();
  assert.deepEqual(summary(outcome), [
    [0, 'Welcome to ACME support!', null, 400],
    [13, 'What can I do for you?', null, 600],
  ]);
  assert.deepEqual(summary({ parts: outcome.parts[1].Parts }), [
    [1, 'Track an order', id('01'), 0],
    [1, 'Browse products', id('02'), 0],
    [1, 'Talk to a person', id('03'), 0],
    [17, 'Help center', null, 0],
  ]);
  assert.equal(outcome.parts[1].Parts[3].Url, 'https://example.org/help');
  assert.equal(outcome.enableUserChat, false);
  assert.equal(chat.where, 'Main/Welcome');
  assert.equal(chat.variables.company, 'ACME');
});

test('a vip hears the extra greeting', () => {
  const chat = newChat();
  chat.state.tags = ['vip'];
  const outcome = chat.start();
  assert.deepEqual(
    outcome.parts.map((p) => p.Text),
    ['Welcome to ACME support!', 'Good to see you again, valued customer.', 'What can I do for you?'],
  );
});

test('browsing products: carousel, a choice, and what comes next', () => {
  const chat = newChat();
  chat.start();
  const products = chat.click(id('02'));
  assert.equal(chat.variables.last_command, 'Browse products');
  assert.equal(products.parts.length, 1);
  assert.equal(products.parts[0].Type, 5);
  assert.deepEqual(
    products.parts[0].Parts.map((card) => [card.Title, card.Subtitle, card.ImageUrl, card.Parts.length]),
    [
      ['Kettle', '1.7 l, steel', 'https://example.org/p/kettle.jpg', 1],
      ['Toaster', '4 slots', 'https://example.org/p/toaster.jpg', 2],
    ],
  );
  assert.equal(products.enableUserChat, false);

  const chosen = chat.click(id('12'));
  assert.deepEqual(summary(chosen), [
    [0, 'Good choice: the Toaster.', null, 400],
    [0, 'Anything else?', null, 200],
  ]);
  assert.deepEqual(
    chosen.parts.map((p) => p.InteractionName),
    ['Product Chosen', 'Anything Else'],
  );
  assert.equal(chat.variables.chosen_product, 'Toaster');
  assert.equal(chat.variables.cart_items, '1');
  assert.equal(chat.where, 'Main/Anything Else');
  assert.equal(chosen.enableUserChat, true);
  assert.deepEqual(chat.state.previous, { behaviour: 'Main', interaction: 'Product Chosen' });
});

test('not understood three times escalates to a human', () => {
  const chat = newChat();
  chat.start();
  const sorry = "Sorry, I did not get that. Type 'restart' to see the menu.";
  assert.deepEqual(
    chat.say('blah').parts.map((p) => p.Text),
    [sorry],
  );
  assert.equal(chat.where, 'Main/Not Understood');
  assert.equal(chat.variables.last_user_text, 'blah');
  chat.say('blah blah');
  const third = chat.say('still blah');
  assert.deepEqual(
    third.parts.map((p) => p.Text),
    ['I am asking a colleague to join. Please hold on.'],
  );
  // The text reached a fallback: it is a missed text, recorded where the conversation stood.
  assert.deepEqual(third.effects, [
    { kind: 'missed', text: 'still blah', behaviour: 'Main', interaction: 'Not Understood' },
    { kind: 'control', mode: 'request' },
  ]);
  assert.equal(third.endedBy, 'operator');
  assert.equal(chat.where, 'Escalation/Ask For Human');
  assert.equal(chat.variables.misses, '3');
});

test('bot triggers: "restart" goes back to the welcome, "Agent" (any case) asks for a human', () => {
  const chat = newChat();
  chat.start();
  chat.say('blah');
  const restart = chat.say('Start Over');
  assert.equal(restart.parts[0].Text, 'Welcome to ACME support!');
  assert.equal(chat.where, 'Main/Welcome');
  const agent = chat.say('  AGENT ');
  assert.equal(agent.endedBy, 'operator');
  assert.equal(chat.variables.goto_source_behaviour, 'Main');
  assert.equal(chat.variables.goto_source_interaction, 'Welcome');
});

test('tracking an order: input, a wrong answer, the answer, then the e-mail question', () => {
  const chat = newChat();
  chat.start();
  const ask = chat.click(id('01'));
  assert.deepEqual(summary(ask), [[6, 'What is your order number? (six digits)', null, 700]]);
  assert.equal(chat.where, 'Orders/Ask Number');
  assert.equal(ask.endedBy, 'input');

  const wrong = chat.say('my order');
  assert.deepEqual(summary(wrong), [
    [0, 'That does not look like an order number.', null, 800],
    [6, 'What is your order number? (six digits)', null, 700],
  ]);

  const found = chat.say('#123456');
  assert.deepEqual(
    found.parts.map((p) => [p.Type, p.Text, p.InteractionName]),
    [
      [0, 'Order #123456 is on its way.', 'Lookup'],
      [6, "May we e-mail you updates? Type your address, or 'no'.", 'Lookup'],
    ],
  );
  assert.deepEqual(chat.state.tags, ['has_order']);
  assert.equal(chat.state.waiting?.actionId, id('22'));

  const email = chat.say('ann@example.org');
  assert.deepEqual(
    email.parts.map((p) => p.Text),
    ['Thanks, we will write to ann@example.org.', 'Anything else?'],
  );
  assert.deepEqual(chat.state.privacy, { personal_data_processing: true });
  assert.equal(chat.variables.email, 'ann@example.org');
  assert.equal(chat.state.waiting, null);
});

test('the e-mail question answered with "no"', () => {
  const chat = newChat();
  chat.start();
  chat.click(id('01'));
  chat.say('654321');
  assert.deepEqual(
    chat.say('no').parts.map((p) => p.Text),
    ['No problem.', 'Anything else?'],
  );
  assert.equal(chat.variables.email, undefined);
});

test('two wrong order numbers give up and escalate; the variable stays unset', () => {
  const chat = newChat();
  chat.start();
  chat.click(id('01'));
  chat.say('no idea');
  const giveUp = chat.say('still no idea');
  assert.deepEqual(
    giveUp.parts.map((p) => p.Text),
    ['I am asking a colleague to join. Please hold on.'],
  );
  assert.equal(chat.variables.order_number, undefined);
  assert.equal(giveUp.endedBy, 'operator');
});

test('skipping initiation: a first text matching a trigger runs it instead of the welcome', () => {
  const chat = newChat();
  const outcome = chat.start('operator');
  assert.deepEqual(
    outcome.parts.map((p) => p.Text),
    ['I am asking a colleague to join. Please hold on.'],
  );
  assert.equal(chat.variables.last_user_text, 'operator');
  const other = newChat();
  assert.equal(other.start('hello there').parts[0].Text, 'Welcome to ACME support!');
});

test('the Orders behaviour trigger picks up an order number typed in Orders when no input waits', () => {
  const chat = newChat();
  chat.start();
  chat.state = { ...chat.state, position: { behaviour: 'Orders', interaction: 'Ask Number' }, waiting: null };
  const outcome = chat.say('987654');
  assert.equal(chat.variables.order_number, '987654');
  assert.equal(outcome.parts[0].Text, 'Order 987654 is on its way.');
  // the same text in Main matches no trigger: it is not understood
  const main = newChat();
  main.start();
  assert.equal(main.say('987654').parts[0].InteractionName, 'Not Understood');
  assert.equal(main.variables.order_number, undefined);
});
