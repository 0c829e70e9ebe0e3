// ui/knowledge/faq-csv.ts: the Knowledge page's CSV of question,answer, as spreadsheets write it
// (header or not, `,` or `;`, quotes, BOM, CRLF), and one clear message per line it cannot add.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { faqFromCsv } from '../../ui/knowledge/faq-csv.js';

test('a header row, a BOM, CRLF and quoted fields holding commas, line breaks and quotes', () => {
  const csv = '\ufeffquestion,answer\r\n"Do you ship to Norway, Sweden?","Yes.\r\nIn ""five"" days."\r\nCan I pay by card?,Visa and Mastercard.\r\n';
  assert.deepEqual(faqFromCsv(csv), {
    pairs: [
      { Question: 'Do you ship to Norway, Sweden?', Answer: 'Yes.\nIn "five" days.' },
      { Question: 'Can I pay by card?', Answer: 'Visa and Mastercard.' },
    ],
    problems: [],
  });
});

test('semicolons, no header, blank lines and a trailing separator', () => {
  assert.deepEqual(faqFromCsv('Open on Sunday?;No, Monday to Saturday.;\n\nParking?;"Behind the shop; free."\n'), {
    pairs: [
      { Question: 'Open on Sunday?', Answer: 'No, Monday to Saturday.' },
      { Question: 'Parking?', Answer: 'Behind the shop; free.' },
    ],
    problems: [],
  });
});

test('each bad line says why by its line number; the good lines are still added', () => {
  const csv = ['Good?,Yes.', 'Only a question', ',An answer alone', 'No answer?,', 'a,b,c', `${'q'.repeat(1_001)},x`, '"Last?","Never closed'].join('\n');
  assert.deepEqual(faqFromCsv(csv), {
    pairs: [{ Question: 'Good?', Answer: 'Yes.' }],
    problems: [
      'Line 2: a question needs its answer after a comma or a semicolon.',
      'Line 3: the question is empty.',
      'Line 4: a question needs its answer after a comma or a semicolon.',
      'Line 5: 3 columns; only question,answer are read (put an answer holding commas in double quotes).',
      'Line 6: the question has 1001 characters; at most 1000.',
      'Line 7: a double quote opens a field that never closes; the lines after it were not read.',
    ],
  });
});

test('no more pairs than the FAQ has room for', () => {
  const csv = Array.from({ length: 5 }, (_, i) => `Q${i}?,A${i}.`).join('\n');
  const { pairs, problems } = faqFromCsv(csv, 3);
  assert.deepEqual(
    pairs.map((p) => p.Question),
    ['Q0?', 'Q1?', 'Q2?'],
  );
  assert.deepEqual(problems, ['2 more pairs were not added: an FAQ holds at most 1000 questions.']);
});
