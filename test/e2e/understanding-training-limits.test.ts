// Issue 22: a training that goes over the training thread's memory or time cap ends that thread,
// not the server. The caps are made small here (COLLOQUY_TRAINING_MEMORY_MB, _SECONDS) so that an
// allowed bot crosses them; the request gets 422 TRAINING_LIMIT and the server goes on serving.
// The caps are per process (trainer.ts): each server of this file sets them when it starts, and
// they run one after the other.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { botFile, text } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { accountToken, createAccount } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { largeAllowedIntents, slowAllowedIntents } from '../support/nlp-kit.js';

const MEMORY_MB = 12;
/** a tenth of a second: the slow bot below trains for seconds, whatever the machine */
const SECONDS = 0.1;

// German: English training also reads WordNet's word list (11 MB of heap) into the thread, which
// alone passes a cap this small; the caps are what is tested here, not a language.
const withIntents = (intents: unknown[]) => ({ ...botFile([{ name: 'Start', start: true, actions: [text('Hi')] }]), nlp: { language: 'de', intents } });
const small = () =>
  withIntents([
    { name: 'hello', examples: ['hi there', 'hello'] },
    { name: 'bye', examples: ['goodbye', 'see you'] },
  ]);
for (const kind of databaseKinds()) {
  for (const [cap, env] of [
    ['memory', { COLLOQUY_TRAINING_MEMORY_MB: String(MEMORY_MB) }],
    ['time', { COLLOQUY_TRAINING_SECONDS: String(SECONDS) }],
  ] as const) {
    describe(`understanding: the training thread's ${cap} cap (${kind})`, () => {
      let server: TestServer;
      let token: string;
      before(async () => {
        server = await startTestServer(kind, env);
        token = await accountToken(server.client, (await createAccount(server.client)).AccountAPIKey);
      });
      after(() => server.close());

      const bots = async () => (await server.client.get('/bots', { token })).body.Result.length;

      if (cap === 'memory') {
        test('over the memory cap: 422 TRAINING_LIMIT (TrainingMemoryMB), nothing saved, and the next bot trains on a new thread', async () => {
          const before = await bots();
          const refused = await server.client.post('/bots', withIntents(largeAllowedIntents(kind === 'sqlite' ? 3 : 4)), { token });
          assert.equal(refused.status, 422, refused.text);
          assert.equal(refused.body.Code, 'TRAINING_LIMIT');
          assert.equal(refused.body.Limit, 'TrainingMemoryMB');
          assert.equal(refused.body.Max, MEMORY_MB);
          assert.equal((await server.client.get('/health')).status, 200);
          assert.equal(await bots(), before);
          const created = await server.client.post('/bots', small(), { token });
          assert.equal(created.status, 201, created.text);
          const parsed = await server.client.post(`/bots/${created.body.APIKey}/nlp/parse`, { Text: 'hello there' }, { token });
          assert.equal(parsed.body.Intent, 'hello');
        });
      } else {
        test('over the time cap: 422 TRAINING_LIMIT (TrainingSeconds) on publish, the live version stays', async () => {
          const created = await server.client.post('/bots', withIntents([]), { token });
          assert.equal(created.status, 201);
          const key = created.body.APIKey;
          assert.equal(
            (
              await server.client.put(
                `/bots/${key}`,
                { ...withIntents(slowAllowedIntents(kind === 'sqlite' ? 7 : 8)), nlp: { language: 'en', intents: slowAllowedIntents(kind === 'sqlite' ? 7 : 8) } },
                { token },
              )
            ).status,
            200,
          );
          const refused = await server.client.post(`/bots/${key}/publish`, {}, { token });
          assert.equal(refused.status, 422, refused.text);
          assert.equal(refused.body.Code, 'TRAINING_LIMIT');
          assert.equal(refused.body.Limit, 'TrainingSeconds');
          assert.equal(refused.body.Max, SECONDS);
          assert.equal((await server.client.get('/health')).status, 200);
          assert.deepEqual(
            (await server.client.get(`/bots/${key}/versions`, { token })).body.Result.map((v: { Version: number }) => v.Version),
            [1],
          );
        });
      }
    });
  }
}
