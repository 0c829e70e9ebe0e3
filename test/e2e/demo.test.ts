// The demo that `npm start` seeds (README "Two commands"): its bot answers from its FAQ before its
// fallback, names the source, and still falls back on what the FAQ does not cover; "assistant"
// reaches its agent, which says plainly what is missing without an AI provider and uses its tools
// with one (the OpenAI-compatible double).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { demoInstructions, seedDemo, type DemoKeys } from '../../src/demo.js';
import { ASSISTANT_GREETING, NO_MODEL_TEXT } from '../../src/demo-assistant.js';
import { AiDouble } from '../support/ai-double.js';
import { buttonCommand, chatOk } from '../support/chat-kit.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';

for (const kind of databaseKinds()) {
  describe(`the demo (${kind})`, () => {
    let server: TestServer;
    let token: string;
    let keys: DemoKeys;
    before(async () => {
      server = await startTestServer(kind);
      keys = (await seedDemo(server.running.services))!;
      assert.ok(keys);
      const res = await server.client.post('/authorization/integration', { AccountAPIKey: keys.accountKey, BotAPIKey: keys.botKey, BotAPISecret: keys.botSecret });
      assert.equal(res.status, 200, res.text);
      token = res.body.token;
    });
    after(() => server.close());

    test('the demo bot answers from its FAQ with the source named, and falls back on the rest', async () => {
      await chatOk(server, token, { UserId: 'ann' });
      const answered = await chatOk(server, token, { UserId: 'ann', Text: 'do you ship to norway?' });
      assert.deepEqual(
        answered.Parts.map((p: any) => p.Text),
        ['Do you ship to Norway?\nYes. We ship to every country of the EU and EEA, Norway included; delivery takes 3 to 5 working days.\n\nSources: ACME support FAQ'],
      );
      const missed = await chatOk(server, token, { UserId: 'ann', Text: 'what is the capital of peru' });
      assert.deepEqual(
        missed.Parts.map((p: any) => p.Text),
        ["Sorry, I did not get that. Type 'restart' to see the menu."],
      );
    });

    test('"assistant" reaches the agent: without an AI provider it says what is missing and goes back to the menu; the printed demo says so too', async () => {
      assert.equal(keys.aiProvider, false);
      const welcome = await chatOk(server, token, { UserId: 'bob' });
      // the welcome's button reaches it too (a visitor of /demo knows no word to type): a greeting, then the agent has the next message
      const clicked = await chatOk(server, token, { UserId: 'bob', Command: buttonCommand(welcome.Parts, 'Ask the assistant') });
      assert.deepEqual(
        clicked.Parts.map((p: any) => p.Text),
        [ASSISTANT_GREETING],
      );
      const asked = await chatOk(server, token, { UserId: 'bob', Text: 'where is my parcel?' });
      assert.equal(asked.Parts[0].Text, NO_MODEL_TEXT.replace('{{agent_status}}', 'ERROR'));
      const reply = await chatOk(server, token, { UserId: 'bob', Text: 'assistant' });
      const texts = reply.Parts.map((p: any) => p.Text);
      assert.equal(texts.length, 2, JSON.stringify(texts));
      assert.equal(texts[0], NO_MODEL_TEXT.replace('{{agent_status}}', 'ERROR'));
      assert.match(texts[1], /^(Anything else\?|Can I help with something else\?)$/);
      // the agent let go: the FAQ answers the next question, not the agent
      const faq = await chatOk(server, token, { UserId: 'bob', Text: 'do you ship to norway?' });
      assert.match(faq.Parts[0].Text, /^Do you ship to Norway\?\n/);
      const printed = demoInstructions('http://127.0.0.1:3000', keys);
      assert.match(
        printed,
        /\nChoose "Ask the assistant" \(or type "assistant"\) to meet its agent \(docs\/agents\.md\): with no AI provider it says so and goes back to the menu; set COLLOQUY_AI_BASE_URL and COLLOQUY_AI_MODEL to let it answer\.\n/,
      );
      assert.match(
        demoInstructions('http://127.0.0.1:3000', { ...keys, aiProvider: true }),
        /\nChoose "Ask the assistant" \(or type "assistant"\) to talk to its agent \(docs\/agents\.md\): the server's AI provider answers/,
      );
    });

    test('with an AI provider the assistant is an agent with the FAQ, order tracking and a person as tools', async () => {
      const ai = await AiDouble.start();
      try {
        const account = (await server.client.post('/authorization/integration', { AccountAPIKey: keys.accountKey })).body.token;
        const put = await server.client.put(`/bots/${keys.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'test-model', ApiKey: 'sk-test' }, { token: account });
        assert.equal(put.status, 200, put.text);
        await chatOk(server, token, { UserId: 'cem' });
        ai.next({ content: 'Hello! I can answer from our FAQ, track an order or find you a colleague.' });
        const hello = await chatOk(server, token, { UserId: 'cem', Text: 'assistant' });
        assert.deepEqual(
          hello.Parts.map((p: any) => p.Text),
          ['Hello! I can answer from our FAQ, track an order or find you a colleague.'],
        );
        const sent = ai.requests[0]!.body;
        assert.match(sent.messages[0]!.content ?? '', /^You are ACME's support assistant\./);
        assert.deepEqual(
          sent.tools?.map((t) => t.function.name),
          ['knowledge', 'track_order', 'handover'],
        );
        ai.next({ toolCalls: [{ name: 'track_order', arguments: {} }] });
        const track = await chatOk(server, token, { UserId: 'cem', Text: 'where is my parcel?' });
        assert.deepEqual(
          track.Parts.map((p: any) => p.Text),
          ['What is your order number? (six digits)'],
        );
      } finally {
        await ai.close();
      }
    });

    test('a database that has an account gets no second demo', async () => {
      assert.equal(await seedDemo(server.running.services), null);
    });
  });
}
