// channels-more.md "Outbound", Teams column: every activity the renderer makes is one the
// connector accepts (checked with the tests' Bot Framework double), whatever the parts hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkActivity } from '../../../test/support/teams-double.js';
import type { ReplyPart } from '../../engine/types.js';
import { TeamsPlatform } from './index.js';
import { renderTeams } from './render.js';

const part = (Type: number, extra: Partial<ReplyPart> = {}): ReplyPart => ({ Type, Text: null, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'X', Parts: [], ...extra });
const button = (Text: string, Command: string) => part(1, { Text, Command });

function activities(parts: ReplyPart[]): any[] {
  return renderTeams(parts).map((call) => {
    const bytes = Buffer.byteLength(JSON.stringify(call.params));
    assert.deepEqual(checkActivity(call.params, bytes), [], JSON.stringify(call.params).slice(0, 300));
    return call.params;
  });
}

test('a text over 7,000 characters is split at word boundaries; multi-byte text stays under 28 KB a message', () => {
  const long = Array.from({ length: 2000 }, (_, i) => `wörd${i}😀`).join(' ');
  const texts = activities([part(0, { Text: long })]).map((a) => a.text);
  assert.ok(texts.length >= 2 && texts.every((t: string) => t.length <= 7000));
  assert.equal(texts.join(' '), long);
});

test('more than 6 buttons continue on further Hero cards, the text on the first; an over-long title is cut', () => {
  const buttons = Array.from({ length: 8 }, (_, i) => button(i === 0 ? 'x'.repeat(150) : `Option ${i}`, `id-${i}`));
  const [message] = activities([part(13, { Text: 'Pick one', Parts: buttons })]);
  assert.deepEqual(
    message.attachments.map((a: any) => [a.content.text, a.content.buttons.map((b: any) => b.value)]),
    [
      ['Pick one', ['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5']],
      [undefined, ['id-6', 'id-7']],
    ],
  );
  assert.equal(message.attachments[0].content.buttons[0].title, `${'x'.repeat(99)}…`);
});

test("a delay is a typing activity holding the next one; the user's own words and empty parts send nothing", () => {
  const calls = renderTeams([part(25, { TypeDelay: 700 }), part(19, { Text: 'mine' }), part(0, { Text: '' }), part(0, { Text: 'After', TypeDelay: 300 })]);
  assert.deepEqual(
    calls.map((c) => [c.params, c.holdNextMs]),
    [
      [{ type: 'typing' }, 700],
      [{ type: 'typing' }, 300],
      [{ type: 'message', text: 'After' }, undefined],
    ],
  );
});

test('each call names its conversation and is sent to the reply address; without one, or on a host no longer allowed, nothing is sent', async () => {
  const teams = new TeamsPlatform({ openIdUrl: 'https://login.invalid/openid', tokenUrl: 'https://login.invalid/token', serviceHosts: ['*.trafficmanager.net'], keysRefreshSeconds: 60 });
  const [call] = teams.render([part(0, { Text: 'Hi' })], '19:abc@thread.tacv2;messageid=1');
  assert.deepEqual(call, { method: 'activity', params: { conversationId: '19:abc@thread.tacv2;messageid=1', activity: { type: 'message', text: 'Hi' } }, toReplyAddress: true });
  const credentials = { appId: 'a', appPassword: 'p' };
  assert.deepEqual(await teams.send(call, credentials, { replyAddress: null }), {
    ok: false,
    retry: false,
    statusCode: null,
    error: 'Teams: the conversation has not written to the bot yet (no verified serviceUrl to answer at)',
  });
  assert.deepEqual(await teams.send(call, credentials, { replyAddress: 'https://evil.example/' }), {
    ok: false,
    retry: false,
    statusCode: null,
    error: 'Teams: the serviceUrl host evil.example is not allowed',
  });
});
