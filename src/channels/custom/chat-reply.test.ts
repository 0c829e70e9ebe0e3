import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replyWithPartsJson, type ChatReply } from '../../conversations/reply.js';
import { chatReplyJson } from './chat-reply.js';

const part = (Text: string) => ({ Type: 0, Text, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Start', Parts: [] });
const rest = { UserId: 'u"1', Creation: '2026-11-22T10:15:03.123+00:00', EnableUserChat: false, ControlType: 2 };

test('a reply with JSON parts is written exactly as the same reply with parsed parts', () => {
  const parts = [part('héllo "you"'), part('second')];
  const plain: ChatReply = { Parts: parts, ...rest };
  const fromJson = replyWithPartsJson(rest, JSON.stringify(parts));
  assert.equal(chatReplyJson(fromJson), JSON.stringify(plain));
  assert.equal(chatReplyJson(plain), JSON.stringify(plain));
});

test('its Parts read like any reply (parsed once, on first use) and JSON.stringify agrees too', () => {
  const fromJson = replyWithPartsJson(rest, JSON.stringify([part('a')]));
  assert.deepEqual(fromJson.Parts, [part('a')]);
  assert.equal(fromJson.Parts, fromJson.Parts);
  assert.deepEqual(JSON.parse(JSON.stringify(fromJson)), { Parts: [part('a')], ...rest });
});

test('an empty history is an empty array', () => {
  assert.equal(chatReplyJson(replyWithPartsJson(rest, '[]')), JSON.stringify({ Parts: [], ...rest }));
});
