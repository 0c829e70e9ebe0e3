// The layout's rules (architecture.md "Layout", issues 12 and 38), checked on every `npm test`: only
// src/http imports the web framework, only src/store the SQL drivers, the engine does no I/O, the
// folders of src/ do not import each other in a circle (type imports included: a type circle
// is a knot in who owns which concept, even though the compiler erases it), each domain reaches storage through its own
// port (never the store's aggregate), and store/ reads only the domains' ports and records (shared
// with store/ on purpose: store/ persists them).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SRC = path.resolve(new URL('../../src', import.meta.url).pathname);

interface ImportLine {
  file: string;
  spec: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every `import … from '…'` and `export … from '…'` of the production sources. */
function importsOf(): ImportLine[] {
  const out: ImportLine[] = [];
  const pattern = /^(?:import|export)(\s+type)?\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'/gm;
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) out.push({ file: path.relative(SRC, file), spec: match[2] ?? match[3], typeOnly: Boolean(match[1]) });
  }
  return out;
}

const folderOf = (relative: string) => (relative.includes(path.sep) ? relative.split(path.sep)[0] : null);
const imports = importsOf();
const targetOf = (i: ImportLine) => path.relative(SRC, path.resolve(SRC, path.dirname(i.file), i.spec)).replace(/\.js$/, '.ts');

/** Depth-first search for back edges; each reported as the circle it closes (a → b → a). */
function circlesOf(graph: ReadonlyMap<string, Iterable<string>>): string[] {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') circles.push([...trail.slice(trail.indexOf(next)), node, next].join(' → '));
      else if (!state.has(next)) walk(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) walk(node, []);
  return circles;
}

function offenders(allowedFolder: string, packages: RegExp): string[] {
  return imports.filter((i) => packages.test(i.spec) && folderOf(i.file) !== allowedFolder).map((i) => `${i.file} imports ${i.spec}`);
}

test('the source tree is where this test looks (guards against an empty scan)', () => {
  assert.ok(imports.length > 300, `${imports.length} imports found`);
  assert.ok(imports.some((i) => i.spec === 'fastify'));
  assert.ok(imports.some((i) => i.spec === 'better-sqlite3'));
});

test('only src/http imports Fastify and its plugins', () => {
  assert.deepEqual(offenders('http', /^(fastify|@fastify\/)/), []);
});

test('only src/store imports the SQL drivers', () => {
  assert.deepEqual(offenders('store', /^(better-sqlite3|pg|pg-[\w-]+)$/), []);
});

test('src/engine does no I/O: no node I/O modules, HTTP clients, drivers, or other folders with I/O', () => {
  const io = /^(node:)?(fs|fs\/promises|net|http|https|dns|child_process|dgram|tls|worker_threads)$|^(undici|pg|better-sqlite3|fastify)$/;
  const bad = imports
    .filter((i) => folderOf(i.file) === 'engine' && !i.typeOnly)
    .filter((i) => {
      if (io.test(i.spec)) return true;
      if (!i.spec.startsWith('.')) return false;
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(i.file), i.spec)).replace(/\.js$/, '.ts');
      return folderOf(target) !== 'engine' && folderOf(target) !== 'shared';
    });
  assert.deepEqual(
    bad.map((i) => `${i.file} imports ${i.spec}`),
    [],
  );
});

test('the folders of src/ import each other in no circle, type imports included', () => {
  const graph = new Map<string, Set<string>>();
  for (const i of imports) {
    const from = folderOf(i.file);
    if (!from || !i.spec.startsWith('.')) continue;
    const to = folderOf(targetOf(i));
    if (!to || to === from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  assert.deepEqual(circlesOf(graph), []);
});

test('no two source files import each other, directly or in a longer circle (types included)', () => {
  const graph = new Map<string, string[]>();
  for (const i of imports) {
    if (!i.spec.startsWith('.')) continue;
    const target = path.relative(SRC, path.resolve(SRC, path.dirname(i.file), i.spec)).replace(/\.js$/, '.ts');
    graph.set(i.file, [...(graph.get(i.file) ?? []), target]);
  }
  assert.deepEqual(circlesOf(graph), []);
});

/**
 * Files besides store/ and the wiring that take the whole store (issue 38): every domain now
 * declares the slice it uses in its port, and only main.ts, which opens the store, is left. It
 * only shrinks: a file not listed here that imports the aggregate fails the test below, and so
 * does a listed file that no longer does.
 */
const STILL_TAKE_THE_STORE = [
  'main.ts', // opens and migrates the store it hands to wiring.ts
].map((f) => path.join(...f.split('/')));

/** The composition root: the one place that hands each service its slice of the store. */
const seesTheStore = (file: string) => folderOf(file) === 'store' || folderOf(file) === 'wiring' || file === 'wiring.ts';

test('the store aggregate (store/index.ts) is imported only by store/ and the wiring, type imports included', () => {
  const importers = imports.filter((i) => i.spec.startsWith('.') && targetOf(i) === path.join('store', 'index.ts') && !seesTheStore(i.file)).map((i) => i.file);
  assert.deepEqual([...new Set(importers)].sort(), [...STILL_TAKE_THE_STORE].sort());
});

/**
 * What store/ still reads of other folders besides their ports and records (issue 38): helpers it
 * runs (sealing secrets, hashing keys, a conversation's first state, the engine's reply parts) and
 * what old migrations re-cut. Only shrinks, like the list above.
 */
const STORE_STILL_READS = ['auth/secret-box.ts', 'auth/secret-key.ts', 'auth/tokens.ts', 'engine/state.ts', 'engine/types.ts', 'knowledge/faq-pairs.ts', 'knowledge/passages.ts'].map((f) =>
  path.join(...f.split('/')),
);

/** A domain's port (port.ts, or <name>-port.ts beside the code that uses it) or its records (model.ts). */
const isPortOrRecords = (file: string) => /(^|[-/])port\.ts$|(^|\/)model\.ts$/.test(file.split(path.sep).join('/'));

test('store/ imports from the domains only their ports and records (shared/ aside), type imports included', () => {
  const read = imports
    .filter((i) => folderOf(i.file) === 'store' && i.spec.startsWith('.'))
    .map(targetOf)
    .filter((target) => folderOf(target) !== 'store' && folderOf(target) !== 'shared' && !isPortOrRecords(target));
  assert.deepEqual([...new Set(read)].sort(), [...STORE_STILL_READS].sort());
});
