// The preview trains the draft's intent model through trainModel, on the training thread like a
// publish, so it meets the same transient refusal (503 TRAINING_BUSY when the queue is full).
// That refusal must not stick to the draft's version: the next preview trains again and runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../src/shared/errors.js';
import { train, trainWith } from '../../src/understanding/model.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`designer preview and the training queue (${kind})`, () => {
    let server: TestServer;
    let tenant: Tenant;
    let trainings = 0;
    before(async () => {
      server = await startTestServer(kind);
      tenant = await createTenant(server.client);
      // a draft whose intents differ from the live version's, so its model is not one trained already
      const draft = supportBot();
      draft.nlp.intents[0].examples.push(`where did my order go ${kind}`);
      assert.equal((await server.client.put(`/bots/${tenant.botKey}`, draft, { token: tenant.accountToken })).status, 200);
      // after the server's start (which installs the training thread): the first training is refused as a full queue would
      trainWith(async (section) => {
        trainings += 1;
        if (trainings === 1) throw new AppError('TRAINING_BUSY', undefined, { Limit: 'TrainingQueue', Max: 8 });
        return train(section);
      });
    });
    after(() => server.close());

    test('a preview refused while the queue is full (503 TRAINING_BUSY) trains and runs on the next try', async () => {
      const preview = () => server.client.post(`/bots/${tenant.botKey}/preview/chat`, { UserId: 'queue' }, { token: tenant.accountToken });
      const refused = await preview();
      assert.deepEqual([refused.status, refused.body.Code, refused.body.Limit], [503, 'TRAINING_BUSY', 'TrainingQueue'], refused.text);
      const ran = await preview();
      assert.equal(ran.status, 200, ran.text);
      assert.ok(ran.body.Parts.length > 0);
      assert.equal(trainings, 2, 'the draft was trained again, once');
    });
  });
}
