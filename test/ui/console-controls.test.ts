// ui/console/controls.ts types the console's controls by id; body.html is where they are declared.
// This keeps the two in step: every id listed is in body.html once, as the element its type says
// (a button listed as an input would type-check and fail in the browser).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

const read = (name: string) => fs.readFileSync(new URL(`../../ui/console/${name}`, import.meta.url), 'utf8');
const TAGS: Record<string, string> = {
  HTMLButtonElement: 'button',
  HTMLDetailsElement: 'details',
  HTMLDialogElement: 'dialog',
  HTMLFormElement: 'form',
  HTMLInputElement: 'input',
  HTMLSelectElement: 'select',
  HTMLTextAreaElement: 'textarea',
};

test('every control of controls.ts is in body.html once, as the element its type says', () => {
  const body = read('body.html');
  const listed = [...read('controls.ts').matchAll(/Ids<\s*(\w+),\s*([^>]+)>/g)].flatMap(([, type, ids]) => [...ids!.matchAll(/'([\w-]+)'/g)].map(([, id]) => ({ id: id!, type: type! })));
  assert.equal(listed.length, 62);
  for (const { id, type } of listed) {
    const tags = [...body.matchAll(new RegExp(`<(\\w+)\\b[^>]*\\bid="${id}"`, 'g'))].map((m) => m[1]);
    assert.deepEqual(tags, [TAGS[type]], `#${id} is a ${TAGS[type]}`);
  }
});
