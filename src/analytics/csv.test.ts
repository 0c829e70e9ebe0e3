// The CSV rules of docs/analytics.md "CSV exports": defused formulas, RFC 4180 quoting, and a
// transcript export that reads page by page and stops at its bound with a row that says so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptRow } from './model.js';
import { csvCell, transcriptsCsv } from './csv.js';

test('cells: every text quoted; formula-looking text gets a leading quote', () => {
  assert.deepEqual(['=1+1', '+1', '-1', '@A1', '\tx', '\rx', 'a,b', 'say "hi"', 'two\nlines', 'plain', 'mid=dle', '', 3, 4.5, null].map(csvCell), [
    `"'=1+1"`,
    `"'+1"`,
    `"'-1"`,
    `"'@A1"`,
    `"'\tx"`,
    `"'\rx"`,
    '"a,b"',
    '"say ""hi"""',
    '"two\nlines"',
    '"plain"',
    '"mid=dle"',
    '""',
    '3',
    '4.5',
    '',
  ]);
});

test("a formula after a ; or a , is defused too: Excel with ; as separator ran `a;=cmd|' /C calc'!A0`", () => {
  assert.equal(csvCell("a;=cmd|' /C calc'!A0"), `"a;'=cmd|' /C calc'!A0"`);
  assert.deepEqual(['x,@SUM(A1)', 'x; +1', 'x;;-1', 'x,\tA;\rB', '=a;=b', 'a-b;c=d'].map(csvCell), [`"x,'@SUM(A1)"`, '"x; +1"', `"x;;'-1"`, `"x,'\tA;'\rB"`, `"'=a;'=b"`, '"a-b;c=d"']);
});

const rows = (n: number): TranscriptRow[] =>
  Array.from({ length: n }, (_x, i) => ({
    conversationId: 1 + Math.floor(i / 4),
    messageId: i + 1,
    userId: `u${Math.floor(i / 4)}`,
    channel: 'web',
    direction: 'USER',
    parts: JSON.stringify([{ Type: 19, Text: `m${i}`, Parts: [] }]),
    createdAt: 0,
  }));

/** a store page over `all`, recording the limits asked for */
function pager(all: TranscriptRow[], asked: number[]) {
  return async (after: { conversationId: number; messageId: number }, limit: number) => {
    asked.push(limit);
    return all.filter((r) => r.conversationId > after.conversationId || (r.conversationId === after.conversationId && r.messageId > after.messageId)).slice(0, limit);
  };
}

async function collect(gen: AsyncGenerator<string>): Promise<string[]> {
  let text = '';
  for await (const chunk of gen) text += chunk;
  return text.split('\r\n').slice(0, -1);
}

test('transcripts are read in pages of 500 and all written when within the bound', async () => {
  const asked: number[] = [];
  const lines = await collect(transcriptsCsv(pager(rows(1200), asked), () => 'T', 2000));
  assert.equal(lines.length, 1201);
  assert.equal(lines[1200], '"u299","web","T","USER","m1199"');
  assert.deepEqual(asked, [500, 500, 500]);
});

test('an export beyond its bound stops there and says so in its last row', async () => {
  const asked: number[] = [];
  const lines = await collect(transcriptsCsv(pager(rows(10), asked), () => 'T', 6));
  assert.deepEqual(lines.slice(1), [
    ...[0, 1, 2, 3, 4, 5].map((i) => `"u${Math.floor(i / 4)}","web","T","USER","m${i}"`),
    '"","","","","The export stops after 6 messages: choose a shorter period for the rest."',
  ]);
  assert.deepEqual(asked, [7]);
  // exactly at the bound: everything, no note
  assert.equal((await collect(transcriptsCsv(pager(rows(6), []), () => 'T', 6))).length, 7);
});
