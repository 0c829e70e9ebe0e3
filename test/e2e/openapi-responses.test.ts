// Issue 15, item 10: /docs documents what every operation answers — a schema for its success and
// the catalogue's ErrorResponse for its errors — and reply parts read as parts, not additionalProp1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCatalogue } from '../../src/shared/errors.js';
import { databaseKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Operation = { responses: Record<string, { description: string; content?: Record<string, { schema?: Record<string, any> }> }> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const PART_MEMBERS = ['Type', 'Text', 'Command', 'TypeDelay', 'BehaviourName', 'InteractionName', 'Url', 'Title', 'Subtitle', 'ImageUrl', 'Parts'];

for (const kind of databaseKinds()) {
  describe(`OpenAPI responses (${kind})`, () => {
    let server: TestServer;
    let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, any> } };
    before(async () => {
      server = await startTestServer(kind);
      doc = (await server.client.get('/openapi.json')).body;
    });
    after(() => server.close());

    const operations = () =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
      );

    test('every operation documents a 2xx answer with a schema and a 4xx answer with ErrorResponse', () => {
      const all = operations();
      assert.ok(all.length >= 45, `${all.length} operations`);
      const undocumented = all.filter(({ op }) => {
        // 204 No Content has, by definition, no body to describe
        const success = Object.entries(op.responses).some(
          ([status, r]) => status === '204' || (/^2/.test(status) && Object.values(r.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0)),
        );
        const failure = Object.entries(op.responses).some(([status, r]) => /^4/.test(status) && r.content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorResponse');
        return !success || !failure;
      });
      assert.deepEqual(
        undocumented.map((u) => u.name),
        [],
      );
      assert.equal(
        all.some(({ op }) => op.responses['200']?.description === 'Default Response'),
        false,
        'no "Default Response" is left',
      );
    });

    test('ErrorResponse has Code and Message, and each error answer names codes of its status from the catalogue', () => {
      const schema = doc.components.schemas.ErrorResponse;
      assert.deepEqual(schema.required, ['Code', 'Message']);
      assert.equal(schema.properties.Code.type, 'string');
      assert.equal(schema.additionalProperties, true, 'extra members (Field, Problems, BanExpiration...) are part of the answer');
      for (const { name, op } of operations()) {
        for (const [status, answer] of Object.entries(op.responses).filter(([s]) => /^[45]/.test(s))) {
          const codes = answer.description.replace(' (docs/errors.md)', '').split(', ');
          for (const code of codes) {
            const entry = errorCatalogue[code as keyof typeof errorCatalogue];
            assert.ok(entry, `${name} ${status}: ${code} is in the catalogue`);
            assert.equal(String(entry.status), status, `${name}: ${code} is answered with ${entry.status}`);
          }
        }
      }
    });

    test('authenticated operations list 401 and 403; POST /custom/chat lists its own errors', () => {
      const chat = doc.paths['/custom/chat'].post.responses;
      assert.match(chat['401'].description, /TOKEN_MISSING, TOKEN_INVALID, TOKEN_EXPIRED/);
      assert.match(chat['403'].description, /USER_BANNED/);
      assert.match(chat['409'].description, /CHANNEL_MISMATCH/);
      assert.match(chat['423'].description, /CONVERSATION_FORGETTING/);
      assert.match(doc.paths['/authorization/integration'].post.responses['404'].description, /ACCOUNT_NOT_FOUND, BOT_NOT_FOUND/);
      assert.equal(doc.paths['/authorization/integration'].post.responses['401'], undefined, 'the token route takes no token');
    });

    test('reply parts are documented member by member, in the chat request and in its answer', () => {
      const requestPart = (doc.paths['/custom/chat'].post as any).requestBody.content['application/json'].schema.properties.Parts.items;
      const answer = doc.paths['/custom/chat'].post.responses['200'].content!['application/json'].schema!;
      const answerPart = answer.properties.Parts.items;
      for (const part of [requestPart, answerPart]) {
        assert.deepEqual(Object.keys(part.properties), PART_MEMBERS);
        assert.equal(part.properties.Type.type, 'integer');
        assert.deepEqual(Object.keys(part.properties.Parts.items.properties), PART_MEMBERS, 'child parts (buttons, cards) too');
      }
      assert.deepEqual(answer.required, ['Parts', 'UserId', 'Creation', 'EnableUserChat', 'ControlType']);
      assert.deepEqual(answerPart.required, ['Type']);
      assert.equal(requestPart.required, undefined, 'an injected part may leave Type out');
    });

    test('streams and text answers say their content type', () => {
      assert.ok(doc.paths['/metrics'].get.responses['200'].content!['text/plain']);
      assert.ok(doc.paths['/web/{key}/events'].get.responses['200'].content!['text/event-stream']);
      assert.ok(doc.paths['/custom/state'].post.responses['202'].content!['application/json'].schema!.properties.State);
    });
  });
}
