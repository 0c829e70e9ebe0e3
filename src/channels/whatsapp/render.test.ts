// WhatsApp's limits degrade, never fail (channels.md "Outbound"): the edges the end-to-end test
// does not reach — many buttons, clashing titles, long bodies, ids over the limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PartType } from '../../engine/parts.js';
import type { ReplyPart } from '../../engine/types.js';
import { LIMITS, renderWhatsApp } from './render.js';

const part = (Type: number, over: Partial<ReplyPart> = {}): ReplyPart => ({ Type, Text: null, Command: null, TypeDelay: 0, BehaviourName: '', InteractionName: '', Parts: [], ...over });
const button = (id: string, title: string) => part(PartType.Button, { Command: id, Text: title });
const link = (title: string, url: string) => part(PartType.Link, { Text: title, Url: url });
const buttons = (text: string, children: ReplyPart[]) => part(PartType.Buttons, { Text: text, Parts: children });
const interactive = (parts: ReplyPart[]) => renderWhatsApp(parts, '4915100000').map((c) => c.params as any);

test('twelve buttons are two lists of at most ten rows; the second has a body of its own', () => {
  const many = Array.from({ length: 12 }, (_, i) => button(`id-${i}`, `Choice ${i}`));
  const [first, second] = interactive([buttons('Pick one', many)]);
  assert.equal(first.interactive.body.text, 'Pick one');
  assert.deepEqual(
    first.interactive.action.sections[0].rows.map((r: any) => r.id),
    many.slice(0, 10).map((b) => b.Command),
  );
  assert.equal(second.interactive.body.text, '…');
  assert.deepEqual(
    second.interactive.action.sections[0].rows.map((r: any) => r.id),
    ['id-10', 'id-11'],
  );
});

test('titles that clash once cut stay unique; payloads stay the button ids', () => {
  const [m] = interactive([buttons('Which?', [button('a', 'The same long title one'), button('b', 'The same long title two')])]);
  const titles = m.interactive.action.buttons.map((b: any) => b.reply.title);
  assert.deepEqual(titles, ['The same long title…', 'The same long tit… 2']);
  assert.ok(titles.every((t: string) => [...t].length <= LIMITS.buttonTitle));
  assert.deepEqual(
    m.interactive.action.buttons.map((b: any) => b.reply.id),
    ['a', 'b'],
  );
});

test('a body over 1024 characters goes first as texts, its last piece carries the buttons; two links are appended', () => {
  const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
  const calls = interactive([buttons(words, [button('a', 'Yes'), link('Site', 'https://a.example/'), link('Shop', 'https://b.example/')])]);
  assert.deepEqual(
    calls.map((c) => c.type),
    ['text', 'text', 'interactive'],
  );
  const body = calls[2].interactive.body.text as string;
  assert.ok(body.length <= LIMITS.body);
  assert.ok(body.endsWith('Site: https://a.example/\nShop: https://b.example/'));
  assert.equal(
    [calls[0].text.body, calls[1].text.body, body]
      .join(' ')
      .split(/\s+/)
      .filter((w) => w.startsWith('word')).length,
    300,
  );
});

test('a button id over the list limit becomes a line of text rather than a refused call', () => {
  const long = 'x'.repeat(LIMITS.rowId + 1);
  const many = [button('a', 'A'), button('b', 'B'), button('c', 'C'), button(long, 'Too long')];
  const [m] = interactive([buttons('Pick', many)]);
  assert.equal(m.interactive.type, 'button');
  assert.equal(m.interactive.body.text, 'Pick\n\n• Too long');
});

test('TypeDelay is a typing indicator on the last inbound message, held at most 10 s', () => {
  const calls = renderWhatsApp([part(PartType.Text, { Text: 'later', TypeDelay: 60_000 })], '4915100000');
  assert.deepEqual(calls[0], { method: 'messages', params: { messaging_product: 'whatsapp', status: 'read', typing_indicator: { type: 'text' } }, onLastInbound: true, holdNextMs: 10_000 });
  assert.equal((calls[1].params as any).text.body, 'later');
});
