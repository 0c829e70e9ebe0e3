// knowledge.md "With an embedding model": passages embedded after indexing through the provider's
// POST /embeddings, kept in the database, and a question matched by meaning and by words together
// (reciprocal rank fusion). The double's vectors (concept-vectors.ts) put "kitten … aboard" next to
// "dogs and cats … in the cabin" without a shared word, so the words-only search finds nothing
// where the hybrid one finds the passage. A provider that fails leaves the words-only answer.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AiDouble } from '../support/ai-double.js';
import { databaseKinds } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { addSource, aiTokens, ask, base, PETS_MD, search } from '../support/knowledge-kit.js';
import { botFile, text } from '../support/chat-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Shares no word (but stop words) with the Pets passage: only its meaning leads there. */
const PARAPHRASE = 'could my kitten join me aboard';
const simpleBot = () => botFile([{ name: 'Start', start: true, actions: [text('Hi')] }]);

const sourceOf = async (server: TestServer, t: Tenant, id: string) => (await server.client.get(`${base(t)}/${id}`, { token: t.accountToken })).body;

/** Polls until every passage of the source has a vector of the current model (embedded after the 201). */
async function waitEmbedded(server: TestServer, t: Tenant, id: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const s = await sourceOf(server, t, id);
    if (s.Chunks > 0 && s.Embedded === s.Chunks) return s;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`source ${id} never embedded: ${JSON.stringify(await sourceOf(server, t, id))}`);
}

for (const kind of databaseKinds()) {
  describe(`knowledge embeddings (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    let words: Tenant;
    let meaning: Tenant;
    let sourceId: string;
    before(async () => {
      ai = await AiDouble.start();
      server = await startTestServer(kind);
      words = await createTenant(server.client, simpleBot());
      meaning = await createTenant(server.client, simpleBot());
      await addSource(server, words, { Name: 'Travel rules', Text: PETS_MD });
      sourceId = (await addSource(server, meaning, { Name: 'Travel rules', Text: PETS_MD })).SourceId;
    });
    after(async () => {
      await server.close();
      await ai.close();
    });
    beforeEach(() => ai.reset());

    const putAi = async (t: Tenant, body: Record<string, unknown>) => {
      const res = await server.client.put(`/bots/${t.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'chat-model', ApiKey: 'sk-embed', ...body }, { token: t.accountToken });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const source = (t: Tenant, id: string) => sourceOf(server, t, id);
    const embedded = (t: Tenant, id: string) => waitEmbedded(server, t, id);

    test('a source indexed before the model is searched by words; setting EmbeddingModel embeds it, and the key is never shown', async () => {
      const before = await source(meaning, sourceId);
      assert.equal(before.Embedded, 0);
      assert.deepEqual(await search(server, meaning, PARAPHRASE), [], 'words only: nothing shares a word');
      const view = await putAi(meaning, { EmbeddingModel: 'embed-1' });
      assert.deepEqual(view, { BaseUrl: ai.baseUrl, Model: 'chat-model', Configured: true, Source: 'bot', EmbeddingModel: 'embed-1' });
      const after = await embedded(meaning, sourceId);
      assert.equal(after.Embedded, after.Chunks);
      const calls = ai.embeddingRequests;
      assert.ok(calls.length >= 1);
      assert.equal(calls[0].body.model, 'embed-1');
      assert.equal(calls[0].authorization, 'Bearer sk-embed');
      assert.deepEqual((await server.client.get(`/bots/${meaning.botKey}/ai`, { token: meaning.accountToken })).body, view);
      assert.ok(!JSON.stringify(view).includes('sk-embed'));
    });

    test('hybrid search finds a paraphrase that words alone miss, keeps word matches first, and still finds nothing for an unrelated question', async () => {
      await embedded(meaning, sourceId);
      assert.deepEqual(await search(server, words, PARAPHRASE), []);
      const found = await search(server, meaning, PARAPHRASE);
      assert.equal(found[0]?.Heading, 'Pets', JSON.stringify(found));
      assert.ok(found[0].Score > 0);
      assert.equal(ai.embeddingRequests.at(-1)?.body.input?.[0], PARAPHRASE);
      const byWords = await search(server, meaning, 'how heavy may my suitcase be');
      assert.equal(byWords[0]?.Heading, 'Luggage');
      assert.deepEqual(await search(server, meaning, 'what is the weather like in paris tomorrow'), []);
    });

    test('a provider that fails or hangs leaves the words-only search: 200, never an error', async () => {
      await embedded(meaning, sourceId);
      ai.embeddingsDown = { status: 500 };
      assert.deepEqual(await search(server, meaning, PARAPHRASE), []);
      assert.equal((await search(server, meaning, 'suitcase'))[0]?.Heading, 'Luggage');
      ai.embeddingsDown = { body: '{"data": "not a list"}' };
      assert.deepEqual(await search(server, meaning, PARAPHRASE), []);
      ai.embeddingsDown = { delayMs: 5_000 };
      assert.deepEqual(await search(server, meaning, PARAPHRASE), []);
    });

    test('the answer step uses the hybrid passages: the model is given the Pets passage for the paraphrase', async () => {
      await embedded(meaning, sourceId);
      ai.next({ content: JSON.stringify({ answer: 'Yes, in a closed carrier.', sources: [1] }) });
      const answer = await ask(server, meaning, PARAPHRASE);
      assert.equal(answer.Status, 'ANSWERED');
      assert.deepEqual(
        answer.Sources.map((s: any) => s.SourceName),
        ['Travel rules'],
      );
      const chat = ai.requests.find((r) => r.path.endsWith('/chat/completions'))!;
      assert.match(chat.body.messages[1].content, /passage \[1\] from "Travel rules — Pets"/);
      // the chat call's 17 tokens at once; the embedding tokens within a second (accounts/token-tally.ts)
      assert.ok((await aiTokens(server, meaning, (n) => n > 17)) > 17, 'the embedding tokens count too');
    });

    test('changing the model re-embeds every passage; replacing a source drops its old vectors at once', async () => {
      await embedded(meaning, sourceId);
      await putAi(meaning, { EmbeddingModel: 'embed-2' });
      const again = await embedded(meaning, sourceId);
      assert.equal(again.Embedded, again.Chunks);
      assert.ok(ai.embeddingRequests.some((r) => r.body.model === 'embed-2'));
      assert.equal((await search(server, meaning, PARAPHRASE))[0]?.Heading, 'Pets');
      const replaced = await server.client.put(`${base(meaning)}/${sourceId}`, { Name: 'Travel rules', Text: '# Parking\n\nThe car park opens at five.' }, { token: meaning.accountToken });
      assert.equal(replaced.status, 200);
      assert.deepEqual(await search(server, meaning, PARAPHRASE), [], 'the Pets passage and its vector are gone');
      await embedded(meaning, sourceId);
      assert.deepEqual(await search(server, meaning, PARAPHRASE), []);
      const restored = await server.client.put(`${base(meaning)}/${sourceId}`, { Name: 'Travel rules', Text: PETS_MD }, { token: meaning.accountToken });
      assert.equal(restored.status, 200);
    });

    test('a bad EmbeddingModel is 400 INVALID_REQUEST and changes nothing', async () => {
      const t = await createTenant(server.client, simpleBot());
      await putAi(t, { EmbeddingModel: 'embed-1' });
      for (const EmbeddingModel of ['m'.repeat(257), 42, ['embed-2']]) {
        const res = await server.client.put(`/bots/${t.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'chat-model', EmbeddingModel }, { token: t.accountToken });
        assert.equal(res.status, 400, JSON.stringify(EmbeddingModel).slice(0, 20));
        assert.equal(res.body.Code, 'INVALID_REQUEST');
      }
      assert.equal((await server.client.get(`/bots/${t.botKey}/ai`, { token: t.accountToken })).body.EmbeddingModel, 'embed-1');
    });

    test('removing the embedding model goes back to words only', async () => {
      const t = await createTenant(server.client, simpleBot());
      const id = (await addSource(server, t, { Name: 'Travel rules', Text: PETS_MD })).SourceId;
      await putAi(t, { EmbeddingModel: 'embed-1' });
      await embedded(t, id);
      assert.equal((await search(server, t, PARAPHRASE))[0]?.Heading, 'Pets');
      const view = await putAi(t, {});
      assert.equal(view.EmbeddingModel, null);
      assert.equal((await source(t, id)).Embedded, 0);
      assert.deepEqual(await search(server, t, PARAPHRASE), []);
    });
  });
}

for (const kind of databaseKinds()) {
  describe(`knowledge embeddings, server-wide model (${kind})`, () => {
    let server: TestServer;
    let ai: AiDouble;
    before(async () => {
      ai = await AiDouble.start();
      // the server's provider is the operator's and trusted; bots may not dial private addresses
      server = await startTestServer(kind, {
        COLLOQUY_ALLOW_PRIVATE_NETWORK: '0',
        COLLOQUY_AI_BASE_URL: ai.baseUrl,
        COLLOQUY_AI_MODEL: 'server-chat',
        COLLOQUY_AI_API_KEY: 'sk-server',
        COLLOQUY_AI_EMBEDDING_MODEL: 'server-embed',
      });
    });
    after(async () => {
      await server.close();
      await ai.close();
    });

    test("COLLOQUY_AI_EMBEDDING_MODEL serves every bot without its own; a bot's own private URL is refused by the guard and leaves words only", async () => {
      const t = await createTenant(server.client, simpleBot());
      const id = (await addSource(server, t, { Name: 'Travel rules', Text: PETS_MD })).SourceId;
      const view = (await server.client.get(`/bots/${t.botKey}/ai`, { token: t.accountToken })).body;
      assert.deepEqual(view, { BaseUrl: null, Model: null, Configured: true, Source: 'server', EmbeddingModel: 'server-embed' });
      const source = await waitEmbedded(server, t, id);
      assert.equal(source.Embedded, source.Chunks);
      assert.ok(ai.embeddingRequests.every((r) => r.body.model === 'server-embed' && r.authorization === 'Bearer sk-server'));
      assert.equal((await search(server, t, PARAPHRASE))[0]?.Heading, 'Pets');
      const own = await server.client.put(`/bots/${t.botKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'own-chat', EmbeddingModel: 'own-embed' }, { token: t.accountToken });
      assert.equal(own.status, 200);
      ai.reset();
      assert.deepEqual(await search(server, t, PARAPHRASE), [], 'the own model has no vectors, and its loopback URL is never dialled');
      assert.deepEqual(ai.embeddingRequests, []);
    });
  });
}
