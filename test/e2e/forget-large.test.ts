// docs/limits.md "Forgetting", for a conversation large enough to matter: 400 messages of 16 KB
// (the history keeps the last ~60, but every one passed through the SQLite write-ahead log, which
// grows past the point where it starts over). The forget is complete when the visitor's live
// stream hears `forgotten`; from then on no row mentions the conversation (both databases) and,
// on SQLite, no copy of the user's words is left in the bytes of the database file, its -wal or
// its -shm. A reader holding an old snapshot of the log (a backup, the sqlite3 shell) holds the
// forget's completion back, and the server says so, until it lets go. Several forgets at once,
// while other conversations keep chatting, end the same way.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { chatOk } from '../support/chat-kit.js';
import { tracesOf } from '../support/console-kit.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { createTenant, type Tenant } from '../support/fixtures.js';
import { startTestServerOn, type TestServer } from '../support/server.js';
import { openSse, type SseStream } from '../support/sse.js';
import { startWeb, webKeyOf } from '../support/web-kit.js';

/** How many copies of `marker` each of SQLite's files holds (database, -wal, -shm, a journal). */
function copiesIn(database: TestDatabase, marker: string): Record<string, number> {
  const needle = Buffer.from(marker, 'utf8');
  const copies: Record<string, number> = {};
  for (const name of fs.readdirSync(database.dataDir).filter((n) => n.startsWith('colloquy.sqlite'))) {
    const bytes = fs.readFileSync(path.join(database.dataDir, name));
    let n = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) n++;
    if (n > 0) copies[name] = n;
  }
  return copies;
}

/** The user's message: the marker first, then filler up to the 16,384 characters a text may have. */
const bigText = (marker: string, i: number) => `${marker} message ${i} `.padEnd(16_384, 'lorem ipsum dolor sit amet ');

/** Bounds a test's waits: a failure, never a measurement. */
const FORGET_BOUND_MS = 60_000;

for (const kind of databaseKinds()) {
  describe(`forgetting a large conversation leaves nothing behind (${kind})`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let tenant: Tenant;
    let key: string;
    const streams: SseStream[] = [];
    const logged: string[] = [];
    before(async () => {
      database = await createTestDatabase(kind);
      server = await startTestServerOn(database, {}, { log: (line) => logged.push(line) });
      tenant = await createTenant(server.client);
      key = await webKeyOf(server.client, tenant);
    });
    after(async () => {
      for (const s of streams) s.close();
      await server.close();
      await database.drop();
    });

    /**
     * A web visitor who sent `messages` texts of 16 KB carrying `marker`; its live stream.
     * `halfway` runs after half of them: the last half is sent just before the caller goes on.
     */
    async function bigConversation(marker: string, messages: number, halfway: () => void = () => undefined) {
      const user: string = (await startWeb(server.client, key)).UserId;
      const stream = await openSse(`${server.url}/web/${key}/events?userid=${encodeURIComponent(user)}`);
      assert.equal(stream.status, 200, JSON.stringify(stream.body));
      streams.push(stream);
      await stream.next((e) => e.event === 'ready');
      for (let i = 0; i < messages; i++) {
        if (i === messages / 2) halfway();
        await chatOk(server, tenant.botToken, { UserId: user, Text: bigText(marker, i) }, { CHANNEL: 'web' });
      }
      const bot = await server.running.store.bots.byApiKey(tenant.botKey);
      const conversation = await server.running.store.conversations.byUser(bot!.id, user);
      return { user, stream, conversationId: conversation!.id };
    }

    async function forget(user: string) {
      const res = await server.client.post('/custom/state', { userid: user, state: 'forget' }, { token: tenant.botToken });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body, { UserId: user, State: 'forgetting' });
    }

    test('400 messages of 16 KB: once `forgotten` is heard, no row and (SQLite) no byte of them is left', async () => {
      const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
      const seen = () => kind === 'postgres' || assert.ok(Object.keys(copiesIn(database, marker)).length > 0, 'the test sees the marker');
      // the forget follows the last message at once, while the checkpoint thread still copies them
      const { user, stream, conversationId } = await bigConversation(marker, 400, seen);
      await forget(user);
      await stream.next((e) => e.event === 'forgotten', FORGET_BOUND_MS);
      if (kind === 'sqlite') assert.deepEqual(copiesIn(database, marker), {}, 'copies of the marker per file');
      assert.deepEqual(await tracesOf(database, conversationId, user), {});
      // the server goes on with the same files
      const after = `after-${crypto.randomUUID()}`;
      assert.equal((await chatOk(server, tenant.botToken, { UserId: after, Text: 'hello again' })).UserId, after);
      if (kind === 'sqlite') assert.deepEqual(copiesIn(database, marker), {});
    });

    // SQLite's own log; PostgreSQL has no file of ours to read (docs/limits.md "Forgetting")
    if (kind === 'sqlite')
      test('a reader holding the log back: `forgotten` waits for it, the log says why, then nothing is left', async () => {
        const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
        const { user, stream } = await bigConversation(marker, 400);
        // another process's read transaction, begun before the forget: its snapshot keeps the frames
        const reader = new Database(path.join(database.dataDir, 'colloquy.sqlite'), { readonly: true });
        reader.exec('BEGIN');
        reader.prepare('SELECT count(*) FROM messages').get();
        const warning = (line: string) => line.includes('write-ahead log still holds deleted rows');
        const heard = () => stream.events.filter((e) => e.event === 'forgotten');
        try {
          await forget(user);
          for (let tries = 0; tries < 400 && !logged.some(warning) && heard().length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
          // the words are still in the log (the reader's snapshot needs those frames), so the forget is not complete
          assert.notDeepEqual(copiesIn(database, marker), {});
          assert.deepEqual(heard(), [], 'forgotten while copies of the words are still in the files');
          assert.ok(logged.some(warning), `the server says it is still trying: ${JSON.stringify(logged.filter((l) => l.includes('SQLite')))}`);
        } finally {
          reader.exec('COMMIT');
          reader.close();
        }
        await stream.next((e) => e.event === 'forgotten', FORGET_BOUND_MS);
        assert.deepEqual(copiesIn(database, marker), {}, 'copies of the marker per file');
      });

    test('three forgets at once while other users chat: every one completes, every chat turn is answered', async () => {
      const markers = [0, 1, 2].map(() => `zq${crypto.randomBytes(8).toString('hex')}`);
      const conversations = [];
      for (const marker of markers) conversations.push(await bigConversation(marker, 120));

      let chatting = true;
      const answered = [0, 0, 0, 0];
      const chatter = async (n: number) => {
        for (let i = 0; chatting; i++) {
          await chatOk(server, tenant.botToken, { UserId: `chatter-${n}-${crypto.randomUUID()}`, Text: `hello ${i} `.padEnd(2_000, 'x') });
          answered[n]++;
        }
      };
      const chatters = answered.map((_, n) => chatter(n));
      // the forgets start once every chatter is under way
      while (answered.some((n) => n === 0)) await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(conversations.map((c) => forget(c.user)));
      await Promise.all(conversations.map((c) => c.stream.next((e) => e.event === 'forgotten', FORGET_BOUND_MS)));
      // read while the chatters still write: the guarantee does not wait for a quiet moment
      const left = kind === 'sqlite' ? markers.map((m) => copiesIn(database, m)) : [];
      chatting = false;
      await Promise.all(chatters);

      if (kind === 'sqlite') assert.deepEqual(left, [{}, {}, {}], 'copies of each marker per file');
      for (const c of conversations) assert.deepEqual(await tracesOf(database, c.conversationId, c.user), {});
    });
  });
}
