import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from '../shared/template.js';
import { type MissingStub, stubHandlers } from './stubs.js';

const noClassify = async () => ({ intents: [] });

test('a callApi with a secret is matched and reported as its author wrote it', async () => {
  const handlers = stubHandlers({ callApi: [{ url: 'https://shop.example/o?key={{secret.shop_api}}', status: 201, body: 'ok' }], ai: [], knowledge: [], model: [] }, noClassify);
  const url = renderTemplate('https://shop.example/o?key={{secret.shop_api}}', {}, { secretSlots: true });
  assert.deepEqual(await handlers.http({ kind: 'http', method: 'GET', url, headers: {}, body: null, timeoutMs: 1000 }), { status: 201, body: 'ok' });
  const other = renderTemplate('https://shop.example/p?key={{secret.shop_api}}', {}, { secretSlots: true });
  await assert.rejects(handlers.http({ kind: 'http', method: 'GET', url: other, headers: {}, body: null, timeoutMs: 1000 }), (error: MissingStub) => {
    assert.equal(error.call, 'callApi GET https://shop.example/p?key={{secret.shop_api}}');
    return true;
  });
});
