// importers.md "Limits" and issue 40 "What bad input gets": what is not an export, a broken one,
// a schema version too new or too old, zip and gzip bombs, paths that climb out, links, 10,000
// files, YAML nested too deep or with aliases that expand without end, more than 10 MiB: each a
// 4xx with its stable Code (and the file, path or limit), never a 5xx, and no bot created.
// Names that break the bot schema (empty, 500 characters, control characters) or collide are made
// valid instead, each change in the report's Changed list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { accountToken, createAccount } from '../support/fixtures.js';
import { databaseKinds } from '../support/databases.js';
import { importFile, rawTarGz, readShared, zipFiles } from '../support/import-kit.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;
const typebot = (extra: Record<string, unknown> = {}) => ({
  version: '6.1',
  name: 'Tiny',
  events: [{ id: 'e', type: 'start', outgoingEdgeId: 'edge' }],
  groups: [{ id: 'g1', title: 'Hello', blocks: [{ id: 'b1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Hi' }] }] } }] }],
  edges: [{ id: 'edge', from: { eventId: 'e' }, to: { groupId: 'g1' } }],
  variables: [],
  ...extra,
});
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const rasaNlu = 'version: "3.1"\nnlu:\n- intent: greet\n  examples: |\n    - hi\n    - hello\n';

for (const kind of databaseKinds()) {
  describe(`imports refuse bad input (${kind})`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startTestServer(kind);
      token = await accountToken(server.client, (await createAccount(server.client)).AccountAPIKey);
    });
    after(() => server.close());
    const botCount = async () => (await server.client.get('/bots', { token })).body.Result.length;

    const cases: Array<[string, () => Promise<{ name: string; data: Buffer }> | { name: string; data: Buffer }, number, string, Record<string, unknown>?, Record<string, string>?]> = [
      ['a JSON that is no export', () => ({ name: 'x.json', data: json({ hello: 'world' }) }), 400, 'IMPORT_UNSUPPORTED'],
      ['plain text', () => ({ name: 'notes.txt', data: Buffer.from('just some words') }), 400, 'IMPORT_UNSUPPORTED'],
      ['a format named that the file is not', () => ({ name: 'lead-gen.json', data: readShared('typebot/lead-gen/lead-gen.json') }), 400, 'IMPORT_UNSUPPORTED', {}, { Format: 'rasa' }],
      [
        'a format Colloquy does not import',
        () => ({ name: 'lead-gen.json', data: readShared('typebot/lead-gen/lead-gen.json') }),
        400,
        'INVALID_REQUEST',
        { Field: 'body.Format' },
        { Format: 'botpress' },
      ],
      ['broken JSON', () => ({ name: 'bot.json', data: Buffer.from('{"version": "6.1", "groups": [') }), 400, 'IMPORT_INVALID', { File: 'bot.json', Path: '$' }],
      ['a Typebot schema newer than the newest known', () => ({ name: 'new.json', data: json(typebot({ version: '7.0' })) }), 400, 'IMPORT_UNSUPPORTED', { Version: '7.0', Path: '$.version' }],
      ['a Typebot schema older than 5', () => ({ name: 'old.json', data: json(typebot({ version: '4' })) }), 400, 'IMPORT_UNSUPPORTED', { Version: '4' }],
      ['a Rasa format version 4', () => ({ name: 'nlu.yml', data: Buffer.from(rasaNlu.replace('3.1', '4.0')) }), 400, 'IMPORT_UNSUPPORTED', { Version: '4.0' }],
      [
        'Rasa 1.x Markdown',
        async () => ({ name: 'old.zip', data: await zipFiles({ 'data/nlu.md': '## intent:greet\n- hi', 'domain.yml': 'intents: [greet]' }) }),
        400,
        'IMPORT_UNSUPPORTED',
        { File: 'data/nlu.md' },
      ],
      ['a Dialogflow zip without agent.json', async () => ({ name: 'agent.zip', data: await zipFiles({ 'intents/a.json': '{}' }) }), 400, 'IMPORT_UNSUPPORTED', {}, { Format: 'typebot' }],
      ['a broken zip', () => ({ name: 'x.zip', data: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 7)]) }), 400, 'IMPORT_INVALID'],
      ['a broken tar.gz', () => ({ name: 'x.tar.gz', data: Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]) }), 400, 'IMPORT_INVALID'],
      [
        'a zip bomb (60 MiB of zeros)',
        async () => ({ name: 'bomb.zip', data: await zipFiles({ 'a.json': Buffer.alloc(60 * MiB) }) }),
        400,
        'IMPORT_INVALID',
        { Limit: 'unpackedBytes', Max: 50 * MiB },
      ],
      ['a gzip bomb (60 MiB of zeros)', () => ({ name: 'bomb.tar.gz', data: rawTarGz([{ name: 'a.json', data: Buffer.alloc(60 * MiB) }]) }), 400, 'IMPORT_INVALID', { Limit: 'unpackedBytes' }],
      [
        'a zip entry that climbs out',
        async () => ({ name: 'up.zip', data: await zipFiles({ '../evil.json': '{}', 'agent.json': '{}' }) }),
        400,
        'IMPORT_INVALID',
        { Message: 'The entry "../" climbs out of the archive (..).' },
      ],
      ['a tar entry that climbs out', () => ({ name: 'up.tar.gz', data: rawTarGz([{ name: 'a/../../evil.yml', data: rasaNlu }]) }), 400, 'IMPORT_INVALID', { File: 'a/../../evil.yml' }],
      ['a tar entry with an absolute path', () => ({ name: 'abs.tar.gz', data: rawTarGz([{ name: '/etc/evil.yml', data: rasaNlu }]) }), 400, 'IMPORT_INVALID'],
      [
        'a symbolic link in a tar.gz',
        () => ({
          name: 'link.tar.gz',
          data: rawTarGz([
            { name: 'domain.yml', type: '2', linkname: '/etc/passwd' },
            { name: 'data/nlu.yml', data: rasaNlu },
          ]),
        }),
        400,
        'IMPORT_INVALID',
        { File: 'domain.yml' },
      ],
      [
        'a hard link in a tar.gz',
        () => ({
          name: 'link.tar.gz',
          data: rawTarGz([
            { name: 'data/nlu.yml', data: rasaNlu },
            { name: 'domain.yml', type: '1', linkname: 'data/nlu.yml' },
          ]),
        }),
        400,
        'IMPORT_INVALID',
      ],
      [
        'a symbolic link in a zip',
        async () => ({ name: 'link.zip', data: await zipFiles({ 'data/nlu.yml': rasaNlu, 'domain.yml': '/etc/passwd' }, { symlink: 'domain.yml' }) }),
        400,
        'IMPORT_INVALID',
        { File: 'domain.yml' },
      ],
      [
        '10,000 files in a zip',
        async () => ({ name: 'many.zip', data: await zipFiles(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}.yml`, 'a: 1']))) }),
        400,
        'IMPORT_INVALID',
        { Limit: 'files', Max: 2000 },
      ],
      [
        '10,000 files in a tar.gz',
        () => ({ name: 'many.tar.gz', data: rawTarGz(Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.yml`, data: 'a: 1' }))) }),
        400,
        'IMPORT_INVALID',
        { Limit: 'files' },
      ],
      ['YAML nested 300 levels deep', () => ({ name: 'deep.yml', data: Buffer.from(`nlu: ${'['.repeat(300)}${']'.repeat(300)}\n`) }), 400, 'IMPORT_INVALID', { Limit: 'BotFileDepth' }],
      [
        'YAML aliases that expand without end',
        () => ({
          name: 'laughs.yml',
          data: Buffer.from(
            `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\nnlu: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n`,
          ),
        }),
        400,
        'IMPORT_INVALID',
        { File: 'laughs.yml' },
      ],
      ['an empty file', () => ({ name: 'empty.json', data: Buffer.alloc(0) }), 400, 'IMPORT_INVALID'],
      ['more than 10 MiB', () => ({ name: 'big.json', data: Buffer.alloc(10 * MiB + 1, 32) }), 413, 'PAYLOAD_TOO_LARGE'],
    ];
    for (const [title, make, status, code, extra = {}, fields = {}] of cases) {
      test(`${title}: ${status} ${code}, nothing created`, async () => {
        const before = await botCount();
        const res = await importFile(server.client, token, await make(), fields);
        assert.equal(res.status, status, res.text);
        assert.equal(res.body.Code, code, res.text);
        for (const [key, value] of Object.entries(extra)) assert.deepEqual(res.body[key], value, `${key} in ${res.text}`);
        assert.equal(await botCount(), before);
      });
    }

    test('a JSON body, or no file part, is refused (415, 400 MISSING_FIELD)', async () => {
      const res = await server.client.post('/bots/import', typebot(), { token });
      assert.equal(res.status, 415, res.text);
      assert.equal(res.body.Code, 'UNSUPPORTED_MEDIA_TYPE');
      const form = new FormData();
      form.append('Name', 'x');
      const none = await fetch(`${server.client.base}/bots/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      assert.equal(none.status, 400);
      assert.equal((await none.json()).Code, 'MISSING_FIELD');
    });

    test('names that are empty, 500 characters, hold control characters or collide are made valid, each in Changed', async () => {
      const group = (id: string, title: string) => ({ id, title, blocks: [{ id: `${id}b`, type: 'text', content: { richText: [{ type: 'p', children: [{ text: id }] }] } }] });
      const long = 'L'.repeat(500);
      const file = typebot({
        groups: [group('g1', ''), group('g2', long), group('g3', 'Bad\u0007\u001b\nname'), group('g4', 'Same'), group('g5', 'same')],
        variables: [{ id: 'v1', name: 'channel' }],
      });
      const res = await importFile(server.client, token, { name: 'names.json', data: json(file) }, {}, true);
      assert.equal(res.status, 200, res.text);
      const names = res.body.Bot.behaviours[0].interactions.map((i: any) => i.name);
      assert.deepEqual(names, ['Group 1', 'L'.repeat(100), 'Bad name', 'Same', 'same (2)']);
      assert.deepEqual(
        res.body.Report.Changed.map((c: any) => c.Path),
        ['names.json: $.variables[0].name', 'names.json: $.groups[0].title', 'names.json: $.groups[1].title', 'names.json: $.groups[2].title', 'names.json: $.groups[4].title'],
      );
      assert.match(res.body.Report.Changed[0].Why, /renamed to "imported_channel"/);
      assert.match(res.body.Report.Changed[4].Why, /another interaction has the same name/);
      // NUL is refused everywhere (PostgreSQL text cannot hold it): the file and path are named
      const nul = await importFile(server.client, token, { name: 'nul.json', data: json(typebot({ name: 'a\u0000b' })) }, {}, true);
      assert.equal(nul.status, 400, nul.text);
      assert.deepEqual([nul.body.Code, nul.body.File, nul.body.Path], ['IMPORT_INVALID', 'nul.json', '$']);
    });
  });
}
