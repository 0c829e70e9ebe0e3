// PostgreSQL adapter (pg). A pool per process; transactions take a client of their own.
import pg from 'pg';
import { preparedName, storable, type Queryable, type SqlDriver, type SqlValue } from './driver.js';

// BIGINT (int8) holds our millisecond timestamps and counters: read it as a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

const MIGRATION_LOCK_ID = 742_001;

/**
 * A marked statement goes by its name (pg prepares it once per connection), any other unnamed.
 * Its values as both databases store them: NUL and lone surrogates as U+FFFD (driver.ts `storable`).
 */
function query(sql: string, params: SqlValue[]): pg.QueryConfig<SqlValue[]> {
  const name = preparedName(sql);
  const values = params.map(storable);
  return name === undefined ? { text: sql, values } : { name, text: sql, values };
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    dialect: 'postgres',
    async all<T>(sql: string, params: SqlValue[] = []) {
      return (await client.query(query(sql, params))).rows as T[];
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      return (await client.query(query(sql, params))).rows[0] as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []) {
      return (await client.query(query(sql, params))).rowCount ?? 0;
    },
  };
}

export async function openPostgres(url: string): Promise<SqlDriver> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1');
  const direct = queryable(pool);

  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  };

  return {
    ...direct,
    transaction: (work) =>
      withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const result = await work(queryable(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    exec: async (sql) => void (await pool.query(sql)),
    // DELETE and VACUUM leave the bytes in place; nothing a node can run would erase them (docs/limits.md)
    eraseDeleted: async () => undefined,
    withMigrationLock: (work) =>
      withClient(async (client) => {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      }),
    close: () => pool.end(),
  };
}
