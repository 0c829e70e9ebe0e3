// The baseline of the chat benchmark: a bare Fastify route doing one read-modify-write
// transaction per request on a counter row picked at random among 1,000. Run as a child process
// by bench/run.ts, on one of two databases:
//   SQLite (better-sqlite3, WAL, synchronous=NORMAL, the same settings as the store):
//     BENCH_DB=/tmp/x/baseline.sqlite PORT=0 node --import tsx bench/baseline-server.ts
//   PostgreSQL (pg, a pool of BENCH_PG_POOL connections, 10 by default like the store's; BEGIN,
//   SELECT ... FOR UPDATE, UPDATE, COMMIT on a client of the pool):
//     BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/db PORT=0 node --import tsx bench/baseline-server.ts
import Fastify from 'fastify';

const ROWS = 1000;

interface Backend {
  name: string;
  bump(id: number): Promise<number>;
  close(): Promise<void>;
}

async function sqliteBackend(file: string): Promise<Backend> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, updated_at INTEGER NOT NULL)');
  const seed = db.prepare('INSERT OR IGNORE INTO counters (id, n, updated_at) VALUES (?, 0, 0)');
  db.transaction(() => {
    for (let id = 0; id < ROWS; id++) seed.run(id);
  })();
  const read = db.prepare<[number], { n: number }>('SELECT n FROM counters WHERE id = ?');
  const write = db.prepare('UPDATE counters SET n = ?, updated_at = ? WHERE id = ?');
  const bump = db.transaction((id: number): number => {
    const n = read.get(id)!.n + 1;
    write.run(n, Date.now(), id);
    return n;
  });
  return {
    name: 'SQLite',
    bump: async (id) => bump.immediate(id),
    close: async () => {
      db.close();
    },
  };
}

async function postgresBackend(url: string, poolSize: number): Promise<Backend> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => undefined);
  await pool.query('CREATE TABLE IF NOT EXISTS bench_counters (id INTEGER PRIMARY KEY, n BIGINT NOT NULL, updated_at BIGINT NOT NULL)');
  await pool.query('INSERT INTO bench_counters (id, n, updated_at) SELECT i, 0, 0 FROM generate_series(0, $1::int - 1) AS i ON CONFLICT DO NOTHING', [ROWS]);
  const bump = async (id: number): Promise<number> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ n: string }>('SELECT n FROM bench_counters WHERE id = $1 FOR UPDATE', [id]);
        const n = Number(rows[0].n) + 1;
        await client.query('UPDATE bench_counters SET n = $1, updated_at = $2 WHERE id = $3', [n, Date.now(), id]);
        await client.query('COMMIT');
        return n;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  };
  return { name: `PostgreSQL (pool of ${poolSize})`, bump, close: () => pool.end() };
}

const backend = process.env.BENCH_PG_URL
  ? await postgresBackend(process.env.BENCH_PG_URL, Number(process.env.BENCH_PG_POOL || 10))
  : process.env.BENCH_DB
    ? await sqliteBackend(process.env.BENCH_DB)
    : null;
if (!backend) throw new Error('BENCH_DB (a SQLite file) or BENCH_PG_URL (a PostgreSQL database) must be set');

const app = Fastify({ logger: false });
// Same request shape as a chat turn (JSON body, bearer header): only the work behind it differs.
app.post('/counter', async (request) => {
  const body = request.body as { UserId?: string } | undefined;
  const id = Math.floor(Math.random() * ROWS);
  return { Id: id, UserId: body?.UserId ?? null, N: await backend.bump(id) };
});

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`baseline (${backend.name}): listening on ${address}\n`);

const stop = async () => {
  await app.close();
  await backend.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
