// channels.md "Outbound", Messenger column, and its degradation rules: every call the renderer
// makes is one the Send API accepts (checked by the tests' Graph double), whatever the parts hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSend } from '../../../test/support/messenger-double.js';
import type { ReplyPart } from '../../engine/types.js';
import { parseMessenger } from './parse.js';
import { renderMessenger } from './render.js';

const PSID = '2411';
const part = (Type: number, extra: Partial<ReplyPart> = {}): ReplyPart => ({ Type, Text: null, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'X', Parts: [], ...extra });
const button = (Text: string, Command: string) => part(1, { Text, Command });
const link = (Text: string, Url: string) => part(17, { Text, Url });

function render(parts: ReplyPart[]) {
  const calls = renderMessenger(parts, PSID);
  for (const call of calls) {
    assert.equal(call.method, 'me/messages');
    assert.deepEqual(checkSend(call.params), [], JSON.stringify(call.params));
  }
  return calls;
}
const messages = (parts: ReplyPart[]): any[] => render(parts).map((c) => c.params.message);

test('a text is message.text; one over 2000 characters is split at word boundaries', () => {
  assert.deepEqual(messages([part(0, { Text: 'Hello' })]), [{ text: 'Hello' }]);
  const long = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
  const chunks = messages([part(6, { Text: long })]).map((m: any) => m.text);
  assert.ok(chunks.length === 2 && chunks.every((c: string) => c.length <= 2000));
  assert.equal(chunks.join(' '), long);
});

test('up to 3 buttons, links counted, are a button template; titles cut at 20 with …; payloads stay the ids', () => {
  const [m] = messages([part(13, { Text: 'Pick', Parts: [button('A rather long button title', 'id-1'), link('Site', 'https://example.org'), button('B', 'id-2')] })]);
  assert.deepEqual(m, {
    attachment: {
      type: 'template',
      payload: {
        template_type: 'button',
        text: 'Pick',
        buttons: [
          { type: 'postback', title: 'A rather long butto…', payload: 'id-1' },
          { type: 'web_url', title: 'Site', url: 'https://example.org' },
          { type: 'postback', title: 'B', payload: 'id-2' },
        ],
      },
    },
  });
});

test('more than 3 buttons are quick replies (at most 13) with the links written in the text', () => {
  const many = Array.from({ length: 15 }, (_, i) => button(`Option ${i}`, `id-${i}`));
  const [m] = messages([part(13, { Text: 'Choose', Parts: [...many, link('Docs', 'https://example.org/docs')] })]) as any[];
  assert.equal(m.text, 'Choose\nDocs: https://example.org/docs');
  assert.equal(m.quick_replies.length, 13);
  assert.deepEqual(m.quick_replies[0], { content_type: 'text', title: 'Option 0', payload: 'id-0' });
});

test('a button template text over 640 characters goes first as texts, the buttons on the last chunk', () => {
  const long = 'x '.repeat(500).trim();
  const out = messages([part(13, { Text: long, Parts: [button('Yes', 'y')] })]) as any[];
  assert.equal(out.length, 2);
  assert.ok(typeof out[0].text === 'string' && out[0].text.length <= 640);
  assert.equal(`${out[0].text} ${out[1].attachment.payload.text}`, long);
  assert.equal(out[1].attachment.payload.buttons[0].payload, 'y');
});

test('top-level buttons are one message; a carousel is one generic template of up to 10 elements', () => {
  assert.equal(messages([button('Yes', 'y'), button('No', 'n')])[0].attachment.payload.buttons.length, 2);
  const card = (i: number) =>
    part(14, {
      Title: `Card ${i} `.repeat(12),
      Subtitle: 'Sub',
      ImageUrl: `https://example.org/${i}.png`,
      Parts: [button('Buy', `buy-${i}`), link('See', 'https://example.org'), button('X', 'x'), button('Y', 'y')],
    });
  const out = messages([part(5, { Parts: Array.from({ length: 12 }, (_, i) => card(i)) })]) as any[];
  assert.deepEqual(
    out.map((m) => m.attachment.payload.elements.length),
    [10, 2],
  );
  const first = out[0].attachment.payload.elements[0];
  assert.equal([...first.title].length, 80);
  assert.deepEqual(
    first.buttons.map((b: any) => b.title),
    ['Buy', 'See', 'X'],
  );
});

test('media are attachments with url, their text follows; delay and TypeDelay are typing_on first', () => {
  const calls = render([part(25, { TypeDelay: 1500 }), part(3, { Text: 'Look', Url: 'https://example.org/a.png', TypeDelay: 20_000 }), part(11, { Url: 'https://example.org/f.pdf' })]);
  assert.deepEqual(
    calls.map((c) => [c.params.sender_action ?? c.params.message, c.holdNextMs]),
    [
      ['typing_on', 1500],
      ['typing_on', 10_000],
      [{ attachment: { type: 'image', payload: { url: 'https://example.org/a.png' } } }, undefined],
      [{ text: 'Look' }, undefined],
      [{ attachment: { type: 'file', payload: { url: 'https://example.org/f.pdf' } } }, undefined],
    ],
  );
});

test('parse: texts, quick replies and postbacks; attachments name their kind; echoes and receipts are nothing', () => {
  const messaging = [
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 1, message: { mid: 'm1', text: 'hi' } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 2, message: { mid: 'm2', text: 'Yes', quick_reply: { payload: 'y' } } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 3, postback: { mid: 'm3', title: 'Buy', payload: 'buy-1' } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 4, message: { mid: 'm4', attachments: [{ type: 'location', payload: {} }] } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 5, message: { mid: 'm5', attachments: [{ type: 'image', payload: { url: 'u', sticker_id: 369239263222822 } }] } },
    { sender: { id: '9' }, recipient: { id: '1' }, timestamp: 6, message: { mid: 'm6', is_echo: true, text: 'bot said' } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 7, delivery: { mids: ['m6'], watermark: 7 } },
    { sender: { id: '1' }, recipient: { id: '9' }, timestamp: 8, read: { watermark: 8 } },
  ];
  const events = parseMessenger({ object: 'page', entry: [{ id: '9', time: 9, messaging }] }, '9');
  assert.deepEqual(
    events.map((e) => [e.key, e.userId, e.kind, e.text ?? e.payload]),
    [
      ['m1', 'messenger:1', 'text', 'hi'],
      ['m2', 'messenger:1', 'click', 'y'],
      ['m3', 'messenger:1', 'click', 'buy-1'],
      ['m4', 'messenger:1', 'text', '[location]'],
      ['m5', 'messenger:1', 'text', '[sticker]'],
    ],
  );
  assert.deepEqual(parseMessenger({ object: 'instagram', entry: [{ id: '9', messaging }] }, '9'), []);
  assert.deepEqual(parseMessenger({ object: 'page', entry: [{ id: '8', messaging }] }, '9'), [], 'another Page of the same app');
  assert.deepEqual(parseMessenger('nonsense', '9'), []);
});
