// Environment → typed, validated configuration. Anything wrong here stops the server with a
// message that says which variable is wrong and why.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  demo: boolean;
  adminToken: string | null;
  /** base of the URLs the server hands out; when COLLOQUY_PUBLIC_URL is unset it follows the listening address */
  publicUrl: string;
  publicUrlFromEnv: boolean;
  tokenMinutes: number;
  rateLimitPerMinute: number;
  allowPrivateNetwork: boolean;
  /** how long a node holds a claimed background job (a webhook delivery) before another node may take it over */
  jobClaimSeconds: number;
  logLevel: string;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, got "${databaseUrl}"`);
  }
  const publicUrl = (env.COLLOQUY_PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`COLLOQUY_PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  return {
    port,
    host,
    dataDir: path.resolve(env.COLLOQUY_DATA_DIR || './data'),
    databaseUrl,
    demo: env.COLLOQUY_DEMO !== '0',
    adminToken: env.COLLOQUY_ADMIN_TOKEN || null,
    publicUrl,
    publicUrlFromEnv: Boolean(env.COLLOQUY_PUBLIC_URL),
    tokenMinutes: integer(env, 'COLLOQUY_TOKEN_MINUTES', 60, 1, 60 * 24 * 365),
    rateLimitPerMinute: integer(env, 'COLLOQUY_RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
    allowPrivateNetwork: env.COLLOQUY_ALLOW_PRIVATE_NETWORK === '1',
    jobClaimSeconds: integer(env, 'COLLOQUY_JOB_CLAIM_SECONDS', 60, 1, 3600),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
