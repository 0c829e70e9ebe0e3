import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started } from '../../test-kit.js';

test('image, video, audio and file say Type 3, 9, 10, 11 parts with Url and the caption in Text', () => {
  const [, outcome] = started(
    botWith([
      { type: 'image', url: 'https://x.org/{{pic}}.png', caption: 'A {{pic}}' },
      { type: 'video', url: 'https://x.org/v.mp4' },
      { type: 'audio', url: 'https://x.org/a.mp3', caption: 'listen' },
      { type: 'file', url: 'https://x.org/f.pdf', caption: 'the file' },
    ]),
    { pic: 'cat' },
  );
  const base = { Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Start', Parts: [] };
  assert.deepEqual(outcome.parts, [
    { Type: 3, Text: 'A cat', ...base, Url: 'https://x.org/cat.png' },
    { Type: 9, Text: null, ...base, Url: 'https://x.org/v.mp4' },
    { Type: 10, Text: 'listen', ...base, Url: 'https://x.org/a.mp3' },
    { Type: 11, Text: 'the file', ...base, Url: 'https://x.org/f.pdf' },
  ]);
  assert.deepEqual(Object.keys(outcome.parts[0]), ['Type', 'Text', 'Command', 'TypeDelay', 'BehaviourName', 'InteractionName', 'Parts', 'Url']);
});

test('media without a url is skipped', () => {
  const [, outcome] = started(
    botWith([
      { type: 'image', caption: 'no url' },
      { type: 'text', text: 'after' },
    ]),
  );
  assert.deepEqual(
    outcome.parts.map((p) => p.Type),
    [0],
  );
});
