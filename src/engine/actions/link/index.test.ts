import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started } from '../../test-kit.js';

test('link says a Type 17 part with Url', () => {
  const [, outcome] = started(botWith([{ type: 'link', text: 'Docs for {{who}}', url: 'https://x.org/{{who}}' }]), { who: 'ann' });
  assert.deepEqual(outcome.parts, [{ Type: 17, Text: 'Docs for ann', Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Start', Parts: [], Url: 'https://x.org/ann' }]);
});

test('a link without url is skipped', () => {
  const [, outcome] = started(botWith([{ type: 'link', text: 'nowhere' }]));
  assert.deepEqual(outcome.parts, []);
});

test('a link whose rendered url runs code or reads files is not said (a user-typed value cannot make one)', () => {
  for (const url of ['{{site}}', ' JavaScript:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
    const [, outcome] = started(botWith([{ type: 'link', text: 'open', url }]), { site: 'javascript:alert(document.cookie)' });
    assert.deepEqual(outcome.parts, [], url);
  }
  const [, kept] = started(botWith([{ type: 'link', text: 'open', url: '{{site}}' }]), { site: 'example.org/help' });
  assert.equal(kept.parts[0]?.Url, 'example.org/help');
});
