// The one bundling helper (shared/page-bundle.ts): a bundle is made once and kept, a failed build
// is tried again on the next call, and a bundle's own options (here the module format) reach esbuild.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { builtOnce, bundleScript, etagOf } from './page-bundle.js';

test('builtOnce keeps a success and forgets a failure', async () => {
  let calls = 0;
  const once = builtOnce(async () => {
    calls++;
    if (calls === 1) throw new Error('first build fails');
    return calls;
  });
  await assert.rejects(once(), /first build fails/);
  assert.equal(await once(), 2);
  assert.equal(await once(), 2);
  assert.equal(calls, 2);
});

test('bundleScript bundles an entry with its imports, minified, in the format asked for', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-bundle-'));
  fs.writeFileSync(path.join(dir, 'part.ts'), 'export const greeting: string = "hello from the part";\n');
  fs.writeFileSync(path.join(dir, 'entry.ts'), 'import { greeting } from "./part";\nexport const shown = greeting;\ndocument.title = shown;\n');
  const iife = await bundleScript(path.join(dir, 'entry.ts'));
  assert.match(iife.code, /^("use strict";)?\(\(\)=>\{/, 'an IIFE, the house format');
  assert.ok(iife.code.includes('hello from the part'));
  assert.equal(iife.etag, etagOf(iife.code));
  const esm = await bundleScript(path.join(dir, 'entry.ts'), { format: 'esm' });
  assert.match(esm.code, /export\{/);
  await assert.rejects(bundleScript(path.join(dir, 'missing.ts')));
  fs.rmSync(dir, { recursive: true });
});
