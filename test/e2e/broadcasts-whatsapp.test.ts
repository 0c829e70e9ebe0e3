// Broadcasts on WhatsApp (broadcasts.md "Platform rules") against the Cloud API double: inside the
// 24-hour window the broadcast's own message goes out through the channel's outbox; outside it,
// the approved template (its parameters filled in per user), or, without one, the recipient is
// skipped with the reason. A tap on the broadcast's button counts as a click.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { B_MORE, Broadcasts, movableServer, promoBot } from '../support/broadcast-kit.js';
import { createTenant } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';
import { WhatsAppDouble } from '../support/whatsapp-double.js';
import { WhatsAppKit } from '../support/whatsapp-kit.js';

const HOUR = 3_600_000;

for (const kind of databaseKinds()) {
  describe(`broadcasts on WhatsApp (${kind})`, () => {
    let wa: WhatsAppDouble;
    let database: TestDatabase;
    let server: TestServer;
    let move: (ms: number) => void;
    let kit: WhatsAppKit;
    let api: Broadcasts;
    before(async () => {
      wa = await WhatsAppDouble.start();
      database = await createTestDatabase(kind);
      ({ server, move } = await movableServer(database, { COLLOQUY_META_GRAPH_URL: wa.graphUrl }));
      const tenant = await createTenant(server.client, promoBot());
      kit = await WhatsAppKit.connect(server, tenant, wa);
      api = new Broadcasts(server, tenant);
    });
    after(async () => {
      const violations = [...wa.violations];
      await wa.close();
      await server.close();
      await database.drop();
      assert.deepEqual(violations, [], 'every Cloud API call had the documented shape');
    });

    const template = { Name: 'sale_notice', Language: 'en_US', Parameters: ['{{name}}', 'code {{promo_code|none}}'] };

    test('inside the window: the message itself; outside: skipped without a template, the template with one; a tap counts as a click', async () => {
      const [recent, old] = [kit.newUser(), kit.newUser()];
      await kit.send(kit.text(old, 'hi'));
      await wa.waitFor(() => wa.delivered(old).length >= 2, 'the welcome of the old user');
      move(25 * HOUR);
      await kit.send(kit.text(recent, 'hi'));
      await wa.waitFor(() => wa.delivered(recent).length >= 2, 'the welcome of the recent user');
      const audience = { Channels: ['whatsapp'], UserIds: [`whatsapp:${recent}`, `whatsapp:${old}`] };
      assert.equal((await api.preview(audience)).Count, 2);

      const plain = await api.create({ Audience: audience });
      const first = await api.until(plain.BroadcastId, (b) => b.Status === 'done' && b.Counts.Delivered === 1, 'delivered inside the window');
      assert.deepEqual(first.Counts, { Audience: 2, Pending: 0, Sent: 1, Delivered: 1, Failed: 0, Skipped: 1, Clicked: 0, Reasons: { outside_window_no_template: 1 } });
      const offer = wa.delivered(recent).at(-1);
      assert.deepEqual(
        [offer.type, offer.interactive.type, offer.interactive.body.text, offer.interactive.action.buttons[0].reply.id],
        ['interactive', 'button', 'Our sale starts today, friend! ', B_MORE],
      );
      assert.equal(wa.delivered(old).length, 2, 'nothing for the user outside the window');

      const templated = await api.create({ Audience: audience, Template: template, Variables: { promo_code: 'W24' } });
      const second = await api.until(templated.BroadcastId, (b) => b.Status === 'done' && b.Counts.Delivered === 2, 'both delivered');
      assert.deepEqual([second.Counts.Sent, second.Counts.Skipped], [2, 0]);
      const sent = wa.delivered(old).at(-1);
      assert.deepEqual(sent.template, {
        name: 'sale_notice',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Zoë' },
              { type: 'text', text: 'code W24' },
            ],
          },
        ],
      });
      assert.equal(wa.delivered(recent).at(-1).type, 'interactive', 'inside the window the message itself, not the template');

      await kit.send(kit.buttonReply(recent, B_MORE, 'Tell me more'));
      await wa.waitFor(() => wa.textsOf(recent).includes('Here is more.'), 'the answer to the tap');
      assert.equal((await api.get(templated.BroadcastId)).Counts.Clicked, 1, 'the tap counts for the broadcast that reached the user last');
      assert.equal((await api.get(plain.BroadcastId)).Counts.Clicked, 0);
    });
  });
}
