// Property-based YAML bot files (issue 35, "the fuzz properties gain YAML bodies"): deep (block and
// flow), wide (many keys, long lists), aliased (anchors, alias chains and bombs) and with duplicate
// keys, around a valid bot or in place of one, with the hostile strings of the other properties.
// Whatever is sent to PUT /bots/{k}: never a 5xx; an error is JSON with a catalogue Code at its
// status and leaves the bot's draft as it was; /health answers afterwards.
// FUZZ_RUNS and FUZZ_SEED as for hostile-requests.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { errorCatalogue } from '../../src/shared/errors.js';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { hostileString } from './arbitraries.js';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 16));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const valid = () =>
  toYaml(
    botFile([
      { name: 'Hello', actions: [text('Hi')] },
      { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
    ]),
  );
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const scalar = fc.oneof(
  word,
  hostileString.filter((s): s is string => typeof s === 'string' && s.length < 200).map((s) => JSON.stringify(s)),
);

/** A YAML body: a hostile shape, alone or as the value of a valid bot's `variables`. */
const yamlArb: fc.Arbitrary<{ label: string; body: string }> = fc
  .tuple(
    fc.constantFrom('flow-deep', 'block-deep', 'wide-map', 'long-list', 'alias-bomb', 'anchors', 'duplicate-keys', 'scalar'),
    fc.constantFrom(1, 50, 199, 201, 5_000, 120_000),
    scalar,
    fc.boolean(),
  )
  .map(([shape, n, value, inBot]) => {
    const hostile = (() => {
      switch (shape) {
        case 'flow-deep':
          return `${'['.repeat(n)}${value}${']'.repeat(n)}`;
        case 'block-deep':
          return `${Array.from({ length: Math.min(n, 3_000) }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')} ${value}`;
        case 'wide-map':
          return Array.from({ length: n }, (_, i) => `k${i}: ${value}`).join('\n');
        case 'long-list':
          return Array.from({ length: n }, () => `- ${value}`).join('\n');
        case 'alias-bomb': {
          const levels = Math.min(12, Math.max(2, Math.round(Math.log2(n + 1))));
          const lines = [`a0: &a0 [${value}, ${value}, ${value}, ${value}]`];
          for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}]`);
          return lines.join('\n');
        }
        case 'anchors':
          return Array.from({ length: Math.min(n, 5_000) }, (_, i) => `k${i}: &x${i} ${value}`).join('\n');
        case 'duplicate-keys':
          return Array.from({ length: Math.min(n, 5_000) }, (_, i) => `k${i % 7}: ${value}`).join('\n');
        default:
          return String(value);
      }
    })();
    const body = inBot
      ? `${valid()}variables:\n${hostile
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}\n`
      : hostile;
    return { label: `${shape} n=${n} ${inBot ? 'in a bot' : 'alone'} ${value.slice(0, 60)}`, body };
  });

for (const kind of databaseKinds()) {
  describe(`YAML bot files (${kind})`, { timeout: 900_000 }, () => {
    let server: TestServer;
    let tenant: Tenant;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
    });
    after(() => server.close());

    const draft = async () => (await server.client.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken })).text;

    test('never a 5xx; a refusal is a catalogue error and leaves the draft as it was', async () => {
      await fc.assert(
        fc.asyncProperty(yamlArb, async ({ label, body }) => {
          const before = await draft();
          const res = await server.client.put(`/bots/${tenant.botKey}`, undefined, { token: tenant.accountToken, raw: body, contentType: 'application/yaml' });
          assert.ok(res.status < 500, `${label} → ${res.status} ${res.text.slice(0, 300)}`);
          if (res.status >= 400) {
            const entry = errorCatalogue[res.body?.Code as keyof typeof errorCatalogue];
            assert.ok(entry, `${label} → ${res.status} without a catalogue Code: ${res.text.slice(0, 300)}`);
            assert.equal(res.status, entry.status, label);
            assert.equal(await draft(), before, `${label} → ${res.status} changed the draft`);
          } else {
            assert.equal(res.status, 200, label);
          }
          assert.equal((await server.client.get('/health')).status, 200);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  });
}
