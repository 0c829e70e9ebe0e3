// The console pages' one API client (ui/shared/api-client.ts) over a stand-in fetch: what a page
// gets for a JSON answer, a 204, a catalogue error (with the rest of its body), an error without a
// body, and no answer at all, and what it sends (JSON, or a form as it is).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { ApiError, apiClient, isSignedOut, OFFLINE_MESSAGE } from '../../ui/shared/api-client.js';

const realFetch = globalThis.fetch;
const sent: { url: string; init: RequestInit }[] = [];
function answer(response: () => Response | Promise<Response>): void {
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return response();
  }) as typeof fetch;
}

describe('ui/shared/api-client', () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
    sent.length = 0;
  });

  test('a JSON answer is returned; the call goes under the base with the cookie, a body as JSON', async () => {
    answer(() => Response.json({ Teammates: [] }));
    const data = await apiClient().call('POST', '/team', { Email: 'a@example.org' });
    assert.deepEqual(data, { Teammates: [] });
    assert.equal(sent[0]!.url, '/console/api/team');
    assert.deepEqual(sent[0]!.init, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{"Email":"a@example.org"}' });
  });

  test('without a body no content type is sent; a share link has its own base; a 204 is null', async () => {
    answer(() => new Response(null, { status: 204 }));
    assert.equal(await apiClient({ base: '/share/abc/api' }).call('DELETE', '/x'), null);
    assert.equal(sent[0]!.url, '/share/abc/api/x');
    assert.deepEqual(sent[0]!.init, { method: 'DELETE', credentials: 'same-origin', headers: { accept: 'application/json' } });
  });

  test('headers given go along, with a body or without (an If-Match on a draft save)', async () => {
    answer(() => Response.json({}));
    await apiClient().call('PUT', '/bots/b/draft', { behaviours: [] }, { 'If-Match': '"7"' });
    await apiClient().call('GET', '/bots/b/draft', undefined, { 'If-None-Match': '"7"' });
    assert.deepEqual(sent[0]!.init.headers, { accept: 'application/json', 'content-type': 'application/json', 'If-Match': '"7"' });
    assert.deepEqual(sent[1]!.init.headers, { accept: 'application/json', 'If-None-Match': '"7"' });
  });

  test('an error answer is an ApiError with the status, the Code and the Message', async () => {
    answer(() => Response.json({ Code: 'CONFLICT', Message: 'Taken.' }, { status: 409 }));
    const error = await apiClient()
      .call('GET', '/me')
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.message], [409, 'CONFLICT', 'Taken.']);
    assert.equal(isSignedOut(error), false);
  });

  test('a form (a file upload) is sent as it is, with no content type: the browser writes the multipart boundary', async () => {
    answer(() => Response.json({ SourceId: 's1' }, { status: 201 }));
    const form = new FormData();
    form.append('Name', 'Guide');
    assert.deepEqual(await apiClient().call('POST', '/bots/b/knowledge', form), { SourceId: 's1' });
    assert.equal(sent[0]!.init.body, form);
    assert.deepEqual(sent[0]!.init.headers, { accept: 'application/json' });
  });

  test("an error answer's whole body stays on the ApiError: the designer reads INVALID_BOT's Problems and VERSION_MISMATCH's Version", async () => {
    const problems = [{ Path: 'behaviours[0].name', Message: 'is needed' }];
    answer(() => Response.json({ Code: 'INVALID_BOT', Message: 'The bot file is not valid.', Problems: problems }, { status: 400 }));
    const invalid = await apiClient()
      .call('PUT', '/bots/b/draft', {})
      .catch((e: unknown) => e);
    assert.ok(invalid instanceof ApiError);
    assert.deepEqual([invalid.code, invalid.body.Problems], ['INVALID_BOT', problems]);
    answer(() => Response.json({ Code: 'VERSION_MISMATCH', Message: 'Saved meanwhile.', Version: 12 }, { status: 412 }));
    const mismatch = await apiClient()
      .call('PUT', '/bots/b/draft', {})
      .catch((e: unknown) => e);
    assert.ok(mismatch instanceof ApiError);
    assert.deepEqual([mismatch.status, mismatch.code, mismatch.body.Version], [412, 'VERSION_MISMATCH', 12]);
    answer(() => new Response('<html>', { status: 502 }));
    const bare = await apiClient()
      .call('GET', '/me')
      .catch((e: unknown) => e);
    assert.ok(bare instanceof ApiError);
    assert.deepEqual(bare.body, {});
  });

  test('an error answer without a JSON body says the status; a 401 is a signed-out session', async () => {
    answer(() => new Response('<html>', { status: 401 }));
    const error = await apiClient()
      .call('GET', '/me')
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.message], [401, '', 'The server answered 401.']);
    assert.equal(isSignedOut(error), true);
  });

  test('no answer at all is status 0, Code NETWORK, in words; onAnswer is called only when an answer came', async () => {
    let answers = 0;
    const client = apiClient({ onAnswer: () => answers++ });
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await client.call('GET', '/me').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.message, answers], [0, 'NETWORK', OFFLINE_MESSAGE, 0]);
    answer(() => Response.json({ Code: 'NOT_FOUND', Message: 'No.' }, { status: 404 }));
    await client.call('GET', '/x').catch(() => undefined);
    assert.equal(answers, 1);
  });
});
