// The server an in-process benchmark measures (knowledge, knowledge-dev, agent turn, built-in model,
// knowledge profile): a fresh data folder, on PostgreSQL a fresh database on the local server, the
// benches' settings (no demo, no rate limit, loopback doubles reachable), and one close() that
// stops the server and removes both.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { createPgDatabase } from './pg-database.js';
import { ADMIN_TOKEN } from './setup.js';

export const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchServerOptions {
  database?: 'sqlite' | 'postgres';
  /** settings of this bench on top of the shared ones */
  env?: Record<string, string>;
  /** warnings only: request lines would be most of what the bench prints */
  quiet?: boolean;
}

export interface BenchServer {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/** `name` is a word (letters, digits, underscores): it names the data folder and the database. */
export async function startBenchServer(name: string, options: BenchServerOptions = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `colloquy-bench-${name}-`));
  const database = options.database === 'postgres' ? await createPgDatabase(LOCAL_PG, `colloquy_bench_${name}`, () => undefined) : null;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: dataDir,
    COLLOQUY_DEMO: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.quiet ? { LOG_LEVEL: 'warn' } : {}),
    ...options.env,
  };
  const running = await start(loadConfig(env), options.quiet ? { logger: { level: 'warn' } } : {});
  return {
    url: running.url,
    dataDir,
    close: async () => {
      await running.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
