// A real server on a real port for HTTP tests, on the database kind asked for.
import { loadConfig, type Config } from '../../src/config.js';
import { start, type Running, type StartOptions } from '../../src/main.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { Client } from './client.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  url: string;
  kind: DatabaseKind;
  running: Running;
  client: Client;
  close(): Promise<void>;
}

export async function startTestServer(kind: DatabaseKind, env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase(kind);
  const server = await startTestServerOn(database, env, options);
  return {
    ...server,
    close: async () => {
      await server.close();
      await database.drop();
    },
  };
}

/**
 * A server on an existing test database. Closing it leaves the database as it is, so another
 * server can start on the same data (a restart, or a second node); the caller drops the database.
 */
export async function startTestServerOn(database: TestDatabase, env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    COLLOQUY_DATA_DIR: database.dataDir,
    COLLOQUY_DEMO: '0',
    COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN,
    COLLOQUY_ALLOW_PRIVATE_NETWORK: '1',
    COLLOQUY_RATE_LIMIT_PER_MINUTE: '0',
    // every JSON answer of every test is checked against the OpenAPI document's schema
    COLLOQUY_CHECK_RESPONSES: '1',
    // Off unless a test opts in ({ COLLOQUY_BUILTIN_MODEL: 'on' }): most tests are about words, and
    // loading the model costs a second or two of CPU (test/e2e/builtin-model.test.ts tests it).
    COLLOQUY_BUILTIN_MODEL: 'off',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...env,
  });
  const running = await start(config, options);
  return {
    url: running.url,
    kind: database.kind,
    running,
    client: new Client(running.url),
    close: () => running.close(),
  };
}
