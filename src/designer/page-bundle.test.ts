// The designer's bundle keeps its first load small: what main.js imports statically (and those
// chunks in turn) holds neither CodeMirror nor the JSON-schema extension, which come in a chunk
// loaded only when the source view opens; and the extension's shiki Markdown renderer and its
// YAML parser are replaced out of the bundle altogether (page-bundle.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { designerBundle } from './page-bundle.js';

const STATIC_IMPORT = /import\s*(?:[\w$*{}\s,]*?from\s*)?"\.\/([\w-]+\.js)"/g;
const DYNAMIC_IMPORT = /import\("\.\/([\w-]+\.js)"\)/g;

test('the source editor is a chunk of its own that the first load does not fetch', async () => {
  const files = await designerBundle();
  const first = new Set<string>();
  const visit = (name: string) => {
    if (first.has(name)) return;
    first.add(name);
    for (const m of files.get(name)!.body.matchAll(STATIC_IMPORT)) visit(m[1]!);
  };
  visit('main.js');
  const lazy = [...files.keys()].filter((name) => name.endsWith('.js') && !first.has(name));
  const editor = lazy.filter((name) => files.get(name)!.body.includes('cm-lintRange'));
  assert.equal(editor.length, 1, 'one lazy chunk holds the code editor');
  // main.js imports it on demand: directly, or through a lazy chunk (the source view and the
  // designer's JSON Schema fields share it) that imports it when it loads
  const reaches = (name: string, seen = new Set<string>()): boolean => {
    if (name === editor[0]) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return [...files.get(name)!.body.matchAll(STATIC_IMPORT)].some((m) => reaches(m[1]!, seen));
  };
  assert.ok(
    [...files.get('main.js')!.body.matchAll(DYNAMIC_IMPORT)].some((m) => !first.has(m[1]!) && reaches(m[1]!)),
    'main.js imports it on demand',
  );
  for (const name of first) assert.ok(!files.get(name)!.body.includes('cm-lintRange'), `${name} of the first load holds no code editor`);
  for (const [name, file] of files) {
    assert.ok(!file.body.includes('createHighlighterCore'), `${name} holds no shiki`);
    assert.ok(!file.body.includes('YAMLParseError'), `${name} holds no YAML parser`);
  }
});
