// docs/errors.md and the error catalogue (src/shared/errors.ts) must list exactly the same codes
// with the same statuses (architecture.md "One error catalogue"). No database involved.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { errorCatalogue } from '../../src/shared/errors.js';

type Catalogue = Record<string, { status: number }>;

interface DocRow {
  code: string;
  status: number;
  meaning: string;
}

/** The rows `| CODE | status | meaning |` of a markdown document (header and rule rows skipped). */
export function parseErrorTable(markdown: string): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of markdown.split('\n')) {
    // cells are split on unescaped pipes (a meaning may contain `\|`)
    const cells = /^\|(.*)\|\s*$/
      .exec(line.trim())?.[1]
      ?.split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (!cells || cells.length < 3) continue;
    const code = cells[0]!.replace(/`/g, '');
    if (!/^[A-Z][A-Z0-9_]*$/.test(code)) continue; // the header row, the |---| rule
    rows.push({ code, status: Number(cells[1]!.replace(/`/g, '')), meaning: cells.slice(2).join(' | ').trim() });
  }
  return rows;
}

/** Every disagreement between the documented rows and the catalogue, as readable lines. */
export function compareWithCatalogue(rows: DocRow[], catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const documented = new Map<string, DocRow>();
  for (const row of rows) {
    if (documented.has(row.code)) problems.push(`${row.code} is documented twice`);
    documented.set(row.code, row);
    if (!(row.code in catalogue)) problems.push(`${row.code} is documented but not in the catalogue`);
    else if (catalogue[row.code]!.status !== row.status) problems.push(`${row.code}: documented status ${row.status}, catalogue says ${catalogue[row.code]!.status}`);
    if (row.meaning.length < 10) problems.push(`${row.code}: no explanation of when it happens`);
  }
  for (const code of Object.keys(catalogue)) if (!documented.has(code)) problems.push(`${code} is missing from docs/errors.md`);
  return problems;
}

const docPath = new URL('../../docs/errors.md', import.meta.url);

describe('error catalogue documentation', () => {
  test('docs/errors.md lists exactly the codes of src/shared/errors.ts, with their statuses', () => {
    const rows = parseErrorTable(fs.readFileSync(docPath, 'utf8'));
    assert.ok(rows.length > 0, 'docs/errors.md has an error table');
    assert.deepEqual(compareWithCatalogue(rows, errorCatalogue), []);
    assert.equal(rows.length, Object.keys(errorCatalogue).length);
  });

  test('every catalogue entry has an HTTP error status and a message', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      assert.ok(entry.status >= 400 && entry.status <= 599, code);
      assert.ok(entry.message.length > 0, code);
    }
  });

  test('the comparison catches a missing code, an unknown code, a wrong status and a duplicate', () => {
    const catalogue = { A_CODE: { status: 400 }, B_CODE: { status: 404 }, C_CODE: { status: 409 } };
    const doc = [
      '| Code | Status | When it happens |',
      '|---|---|---|',
      '| A_CODE | 400 | the first thing went wrong |',
      '| `B_CODE` | 410 | the second thing went wrong |',
      '| A_CODE | 400 | documented again, by mistake |',
      '| Z_CODE | 500 | a code nobody throws any more |',
    ].join('\n');
    assert.deepEqual(compareWithCatalogue(parseErrorTable(doc), catalogue), [
      'B_CODE: documented status 410, catalogue says 404',
      'A_CODE is documented twice',
      'Z_CODE is documented but not in the catalogue',
      'C_CODE is missing from docs/errors.md',
    ]);
  });

  test('the parser reads code, status and meaning of a row and skips the header and rule', () => {
    const rows = parseErrorTable('| Code | Status | When |\n|---|---|---|\n| `X_Y` | 403 | when a \\| b |\nnot a row\n');
    assert.deepEqual(rows, [{ code: 'X_Y', status: 403, meaning: 'when a \\| b' }]);
  });
});
