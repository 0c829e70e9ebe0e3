import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, goTo, interaction, say, started, summary } from '../../test-kit.js';

const ID = '11111111-1111-4111-8111-111111111111';

function buttonBot() {
  return botWith(
    [say('Pick one'), { type: 'button', id: ID, text: 'Yes {{name}}', onClick: [say('You said yes'), goTo('Main', 'After')] }, { type: 'button', text: 'no id, not clickable', onClick: [] }],
    [interaction('After', [say('after the click')]), interaction('Sorry', [say('unknown payload')], { fallback: true })],
  );
}

test('button says a Type 1 part whose Command is its id', () => {
  const [, outcome] = started(buttonBot(), { name: 'Ann' });
  assert.deepEqual(summary(outcome), [
    [0, 'Pick one', null, 200],
    [1, 'Yes Ann', ID, 0],
  ]);
});

test('clicking runs onClick and sets last_command to the button text', () => {
  const [conversation] = started(buttonBot(), { name: 'Ann' });
  const outcome = conversation.click(ID);
  assert.deepEqual(summary(outcome), [
    [0, 'You said yes', null, 300],
    [0, 'after the click', null, 300],
  ]);
  assert.equal(conversation.variables.last_command, 'Yes Ann');
  assert.equal(conversation.where, 'Main/After');
  assert.deepEqual(
    outcome.parts.map((p) => p.InteractionName),
    ['Start', 'After'],
  );
});

test('an unknown payload runs the fallback interaction', () => {
  const [conversation] = started(buttonBot());
  const outcome = conversation.click('22222222-2222-4222-8222-222222222222');
  assert.deepEqual(summary(outcome), [[0, 'unknown payload', null, 200]]);
  assert.equal(conversation.where, 'Main/Sorry');
  assert.equal(conversation.variables.last_command, undefined);
});

test('a button clicked from an earlier interaction runs there and the position becomes its interaction', () => {
  const bot = botWith(
    [{ type: 'button', id: ID, text: 'Tag me', onClick: [{ type: 'setTag', tag: 'clicked' }] }, goTo('Main', 'Other')],
    [interaction('Other', [say('elsewhere')], { enableUserChat: false })],
  );
  const [conversation, first] = started(bot);
  assert.equal(conversation.where, 'Main/Other');
  assert.equal(first.enableUserChat, false);
  const outcome = conversation.click(ID);
  assert.deepEqual(outcome.parts, []);
  assert.deepEqual(conversation.state.tags, ['clicked']);
  assert.equal(conversation.where, 'Main/Start');
  assert.equal(outcome.enableUserChat, true);
});

test('a click clears a waiting input', () => {
  const bot = botWith([
    { type: 'button', id: ID, text: 'Skip', onClick: [say('skipped')] },
    { type: 'input', id: '33333333-3333-4333-8333-333333333333', question: 'Age?', expect: 'number', variable: 'age', onSuccess: [] },
  ]);
  const [conversation] = started(bot);
  assert.notEqual(conversation.state.waiting, null);
  conversation.click(ID);
  assert.equal(conversation.state.waiting, null);
});
