import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviour, goTo, interaction, makeBot, say, started, summary, texts } from '../../test-kit.js';

// Main: Start, Second (not chat-enabled), Sorry (fallback); Other: Begin, Oops (fallback); Bare: Only (no fallback)
function bot(startActions: object[], secondActions: object[] = [say('second')]) {
  return makeBot([
    behaviour('Main', [
      interaction('Start', startActions as never),
      interaction('Second', secondActions as never, { enableUserChat: false }),
      interaction('Sorry', [say('main fallback')], { fallback: true }),
    ]),
    behaviour('Other', [interaction('Begin', [say('other begin')]), interaction('Oops', [say('other fallback')], { fallback: true })]),
    behaviour('Bare', [interaction('Only', [say('bare only')]), interaction('Next', [{ type: 'goTo', mode: 'fallback' }])]),
  ]);
}

test('absolute: moves by name (case-insensitive), runs the target and skips the rest of the list', () => {
  const [conversation, outcome] = started(bot([say('one'), goTo('main', 'SECOND'), say('never said')]));
  assert.deepEqual(summary(outcome), [
    [0, 'one', null, 100],
    [0, 'second', null, 100],
  ]);
  assert.equal(conversation.where, 'Main/Second');
  assert.equal(outcome.enableUserChat, false);
  assert.equal(outcome.endedBy, 'done');
});

test('absolute: interaction absent = the behaviour start; behaviour absent = current behaviour; templates', () => {
  assert.deepEqual(texts(started(bot([goTo('Other')]))[1]), ['other begin']);
  assert.deepEqual(texts(started(bot([{ type: 'goTo', mode: 'absolute', interaction: 'Second' }]))[1]), ['second']);
  const [, templated] = started(bot([goTo('{{b}}', '{{i}}')]), { b: 'Other', i: 'Oops' });
  assert.deepEqual(texts(templated), ['other fallback']);
});

test('absolute: a missing target does nothing and the list goes on', () => {
  const [conversation, outcome] = started(bot([goTo('Nowhere'), goTo('Main', 'Nothing'), { type: 'goTo', mode: 'absolute' }, say('still here')]));
  assert.deepEqual(texts(outcome), ['still here']);
  assert.equal(conversation.where, 'Main/Start');
});

test('start: the start interaction of the current behaviour', () => {
  const [conversation] = started(bot([say('start')]));
  const outcome = conversation.goTo('Other', 'Oops');
  assert.deepEqual(texts(outcome), ['other fallback']);
  const b = makeBot([
    behaviour('Main', [interaction('Start', [goTo('Other', 'Oops')])]),
    behaviour('Other', [interaction('Begin', [say('other begin')]), interaction('Oops', [say('oops'), { type: 'goTo', mode: 'start' }])]),
  ]);
  const [c2, o2] = started(b);
  assert.deepEqual(texts(o2), ['oops', 'other begin']);
  assert.equal(c2.where, 'Other/Begin');
});

test('previous: the interaction the conversation was in before the current one', () => {
  const [conversation, first] = started(bot([say('start'), goTo('Main', 'Second')], [say('second'), { type: 'goTo', mode: 'previous', cancelFurtherExecution: true }]));
  assert.deepEqual(texts(first), ['start', 'second']);
  assert.equal(conversation.where, 'Main/Start');
  assert.deepEqual(conversation.state.previous, { behaviour: 'Main', interaction: 'Second' });
});

test('previous: nothing happens when there is no previous interaction', () => {
  const [conversation, outcome] = started(bot([{ type: 'goTo', mode: 'previous' }, say('no previous')]));
  assert.deepEqual(texts(outcome), ['no previous']);
  assert.equal(conversation.state.previous, null);
});

test('fallback: the current behaviour fallback, else the start behaviour fallback', () => {
  assert.deepEqual(texts(started(bot([goTo('Other', 'Begin')], []))[1]), ['other begin']);
  const [c] = started(bot([say('x')]));
  assert.deepEqual(texts(c.goTo('Other', 'Begin')), ['other begin']);
  const own = makeBot([
    behaviour('Main', [interaction('Start', [goTo('Other')]), interaction('Sorry', [say('main fallback')], { fallback: true })]),
    behaviour('Other', [interaction('Begin', [{ type: 'goTo', mode: 'fallback' }]), interaction('Oops', [say('other fallback')], { fallback: true })]),
  ]);
  assert.deepEqual(texts(started(own)[1]), ['other fallback']);
  assert.deepEqual(texts(started(bot([goTo('Bare', 'Next')]))[1]), ['main fallback']);
});

test('bookmark: returns to the last bookmark, across turns', () => {
  const b = makeBot([
    behaviour('Main', [
      interaction('Start', [say('start'), { type: 'bookmark' }, goTo('Main', 'Away')]),
      interaction('Away', [say('away')]),
      interaction('Back', [{ type: 'goTo', mode: 'bookmark' }]),
    ]),
  ]);
  const [conversation] = started(b);
  assert.deepEqual(conversation.state.bookmark, { behaviour: 'Main', interaction: 'Start' });
  assert.equal(conversation.where, 'Main/Away');
  const outcome = conversation.goTo('Main', 'Back');
  assert.deepEqual(texts(outcome), ['start', 'away']);
  assert.equal(conversation.where, 'Main/Away');
});

test('bookmark: nothing happens without a bookmark', () => {
  assert.deepEqual(texts(started(bot([{ type: 'goTo', mode: 'bookmark' }, say('none')]))[1]), ['none']);
});

test('cancelFurtherExecution only sets the position and ends the turn', () => {
  const [conversation, outcome] = started(bot([say('one'), goTo('Main', 'Second', { cancelFurtherExecution: true }), say('never')]));
  assert.deepEqual(texts(outcome), ['one']);
  assert.equal(conversation.where, 'Main/Second');
  assert.equal(outcome.enableUserChat, false);
  assert.equal(outcome.endedBy, 'done');
  assert.deepEqual(conversation.state.previous, { behaviour: 'Main', interaction: 'Start' });
});

test('goto_source_behaviour and goto_source_interaction record where the move came from', () => {
  const [conversation] = started(bot([goTo('Other', 'Begin')]));
  assert.equal(conversation.variables.goto_source_behaviour, 'Main');
  assert.equal(conversation.variables.goto_source_interaction, 'Start');
});

test('loop guard: a goTo cycle stops at the 26th move with what was produced', () => {
  const cycle = makeBot([behaviour('Main', [interaction('Ping', [say('ping'), goTo('Main', 'Pong')]), interaction('Pong', [say('pong'), goTo('Main', 'Ping')])])]);
  const [conversation, outcome] = started(cycle);
  assert.equal(outcome.parts.length, 26); // the start interaction plus 25 moves
  assert.deepEqual(texts(outcome).slice(0, 3), ['ping', 'pong', 'ping']);
  assert.equal(outcome.endedBy, 'guard');
  assert.equal(conversation.where, 'Main/Pong'); // where the 26th goTo was refused
  // the next turn starts afresh with its own 25 moves
  assert.equal(conversation.goTo('Main', 'Ping').parts.length, 26);
});

test('a goTo to the same interaction is a move too (self loop is guarded)', () => {
  const self = makeBot([behaviour('Main', [interaction('Loop', [say('again'), goTo('Main', 'Loop')])])]);
  const [conversation, outcome] = started(self);
  assert.equal(outcome.parts.length, 26);
  assert.equal(outcome.endedBy, 'guard');
  assert.equal(conversation.state.previous, null);
});
