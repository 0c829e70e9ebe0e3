// The SQL port itself (driver.ts): one SQL text with $n placeholders behaving alike on both.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { SqlDriver } from '../../src/store/driver.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { openRaw } from './store-fixtures.js';

for (const kind of databaseKinds()) {
  describe(`store driver (${kind})`, () => {
    let db: TestDatabase;
    let driver: SqlDriver;
    beforeEach(async () => {
      db = await createTestDatabase(kind);
      driver = await openRaw(db);
      await driver.exec(`CREATE TABLE items (name TEXT PRIMARY KEY, n ${kind === 'sqlite' ? 'INTEGER' : 'BIGINT'} NOT NULL, note TEXT);
        CREATE TABLE wide (a TEXT, b TEXT, c TEXT, d TEXT, e TEXT, f TEXT, g TEXT, h TEXT, i TEXT, j TEXT, k TEXT)`);
    });
    afterEach(async () => {
      await driver.close();
      await db.drop();
    });

    test('the dialect is the one asked for', () => {
      assert.equal(driver.dialect, kind);
    });

    test('run returns the number of rows written', async () => {
      assert.equal(await driver.run('INSERT INTO items (name, n, note) VALUES ($1, $2, $3)', ['a', 1, null]), 1);
      assert.equal(await driver.run('INSERT INTO items (name, n, note) VALUES ($1, $2, $3), ($4, $5, $6)', ['b', 2, 'x', 'c', 3, 'y']), 2);
      assert.equal(await driver.run('UPDATE items SET n = n + 10 WHERE n >= $1', [2]), 2);
      assert.equal(await driver.run('UPDATE items SET n = 0 WHERE name = $1', ['none']), 0);
      assert.equal(await driver.run('INSERT INTO items (name, n) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', ['a', 9]), 0);
      assert.equal(await driver.run('DELETE FROM items WHERE name <> $1', ['a']), 2);
    });

    test('run of a statement with RETURNING still returns the number of rows written', async () => {
      await driver.run("INSERT INTO items (name, n) VALUES ('a', 1), ('b', 2), ('c', 3)");
      assert.equal(await driver.run('UPDATE items SET n = n * 2 WHERE n < $1 RETURNING name', [3]), 2);
      assert.equal(await driver.run('DELETE FROM items WHERE name = $1 RETURNING n', ['c']), 1);
      assert.equal(await driver.run('DELETE FROM items WHERE name = $1 RETURNING n', ['c']), 0);
      assert.deepEqual(await driver.all('SELECT name, n FROM items ORDER BY name'), [
        { name: 'a', n: 2 },
        { name: 'b', n: 4 },
      ]);
    });

    test('get gives the first row or undefined; all gives every row', async () => {
      assert.equal(await driver.get('SELECT name FROM items WHERE name = $1', ['missing']), undefined);
      assert.deepEqual(await driver.all('SELECT name FROM items'), []);
      await driver.run("INSERT INTO items (name, n, note) VALUES ('a', 1, NULL), ('b', 2, 'two')");
      assert.deepEqual(await driver.get('SELECT name, n, note FROM items WHERE name = $1', ['a']), { name: 'a', n: 1, note: null });
      assert.deepEqual(await driver.all('SELECT name, n, note FROM items ORDER BY n DESC'), [
        { name: 'b', n: 2, note: 'two' },
        { name: 'a', n: 1, note: null },
      ]);
    });

    test('a placeholder may repeat, and $10, $11 are not read as $1', async () => {
      const values = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10', 'v11'];
      await driver.run('INSERT INTO wide (a, b, c, d, e, f, g, h, i, j, k) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)', values);
      assert.deepEqual(await driver.get('SELECT * FROM wide'), { a: 'v1', b: 'v2', c: 'v3', d: 'v4', e: 'v5', f: 'v6', g: 'v7', h: 'v8', i: 'v9', j: 'v10', k: 'v11' });
      await driver.run('INSERT INTO items (name, n, note) VALUES ($1, $2, $1)', ['same', 5]);
      assert.deepEqual(await driver.get('SELECT name, n, note FROM items'), { name: 'same', n: 5, note: 'same' });
    });

    test('transaction commits on success and rolls back on a throw', async () => {
      assert.equal(
        await driver.transaction(async (tx) => {
          await tx.run("INSERT INTO items (name, n) VALUES ('kept', 1)");
          return 'done';
        }),
        'done',
      );
      await assert.rejects(
        driver.transaction(async (tx) => {
          await tx.run("INSERT INTO items (name, n) VALUES ('dropped', 1)");
          await tx.run("UPDATE items SET n = 99 WHERE name = 'kept'");
          throw new Error('no');
        }),
        { message: 'no' },
      );
      assert.deepEqual(await driver.all('SELECT name, n FROM items'), [{ name: 'kept', n: 1 }]);
    });

    test('withMigrationLock runs the work and returns its result', async () => {
      assert.equal(await driver.withMigrationLock(async () => (await driver.get<{ n: number }>('SELECT 7 AS n'))!.n), 7);
      // …and releases the lock: a second one does not wait forever.
      assert.equal(await driver.withMigrationLock(async () => 'again'), 'again');
    });
  });
}
