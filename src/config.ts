// Environment → typed, validated configuration. Anything wrong here stops the server with a
// message that says which variable is wrong and why.
import { CACHED_CONVERSATIONS } from './conversations/conversation-cache.js';
import { DEFAULT_TRAINING_LIMITS, type TrainingLimits } from './understanding/training-limits.js';
import { isIP } from 'node:net';
import path from 'node:path';
import { withoutTrailingSlashes } from './shared/trailing-slashes.js';

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
  /** conversations a node keeps in memory between turns (conversation-cache.ts); 0: none */
  cachedConversations: number;
  rateLimitPerMinute: number;
  allowPrivateNetwork: boolean;
  /** how long a node holds a claimed background job (a webhook delivery) before another node may take it over */
  jobClaimSeconds: number;
  logLevel: string;
  /** COLLOQUY_TELEGRAM_API_URL: the Telegram Bot API root (trusted: set by whoever runs the server) */
  telegramApiUrl: string;
  /** COLLOQUY_META_GRAPH_URL: the Graph API root with its version (WhatsApp, Messenger) */
  metaGraphUrl: string;
  /** COLLOQUY_SLACK_API_URL: the Slack Web API root (trusted, like the others) */
  slackApiUrl: string;
  /** COLLOQUY_TWILIO_API_URL: the Twilio REST API root, without its version (SMS) */
  twilioApiUrl: string;
  /** Microsoft Teams through the Bot Framework (channels-more.md): where its keys, tokens and replies may come from and go to */
  botFramework: BotFrameworkConfig;
  /** COLLOQUY_SECRET_KEY (or COLLOQUY_ENCRYPTION_KEY, channels.md's name): the key secrets at rest are encrypted with; null = <dataDir>/secret.key */
  secretKey: string | null;
  /** which proxies' X-Forwarded-For to believe for the client address (false: the socket's address) */
  trustProxy: boolean | number | string[];
  /** the server-wide AI provider (COLLOQUY_AI_*), trusted like the channel URLs; null when unset */
  ai: { baseUrl: string; apiKey: string; model: string; embeddingModel?: string | null } | null;
  /** COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY: the lowest cosine a vector match counts at (knowledge.md; default 0.3) */
  embeddingMinSimilarity?: number;
  /**
   * The built-in sentence model (knowledge.md "The built-in model"): COLLOQUY_BUILTIN_MODEL=off
   * turns it off server-wide; COLLOQUY_BUILTIN_MODEL_THREADS its threads (1..8, default 1);
   * COLLOQUY_BUILTIN_MODEL_TEST_HOOKS=1 lets tests crash or hang its thread on purpose.
   */
  builtinModel?: { enabled: boolean; threads: number; testHooks: boolean };
  /** the intent-model training thread's caps (COLLOQUY_TRAINING_MEMORY_MB, _SECONDS, _QUEUE); unset: the defaults */
  training?: TrainingLimits;
  /** documents that may wait for the indexing thread (COLLOQUY_INDEXING_QUEUE); unset: 8 */
  indexingQueue?: number;
  /** COLLOQUY_CHECK_RESPONSES=1 (tests): every JSON answer is validated against its documented schema */
  checkResponses?: boolean;
  /** COLLOQUY_SMTP_URL (+ COLLOQUY_MAIL_FROM, _SMTP_TIMEOUT_SECONDS): invitation links are e-mailed (shared/mail.ts); null: they are not */
  mail?: MailConfig | null;
}

/** Where e-mail goes out (docs/operations.md "E-mail"). The password is in `url` only: never log it. */
export interface MailConfig {
  /** smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps:// (TLS from the start) */
  url: string;
  /** the From header, "Name <address>" or an address */
  from: string;
  /** the most one message may take, connecting included, before it counts as not sent */
  timeoutMs: number;
}

/** The Bot Framework's URLs, trusted like the other upstream URLs (set by whoever runs the server). */
export interface BotFrameworkConfig {
  /** COLLOQUY_BOTFRAMEWORK_OPENID_URL: the OpenID metadata naming the keys inbound activities are signed with */
  openIdUrl: string;
  /** COLLOQUY_BOTFRAMEWORK_TOKEN_URL: where the bot's app id and password buy a token for replies */
  tokenUrl: string;
  /** COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS: the hosts a verified serviceUrl may name (`*.` wildcards) */
  serviceHosts: string[];
  /** COLLOQUY_BOTFRAMEWORK_KEYS_REFRESH_SECONDS: an unknown key id fetches the keys again at most this often */
  keysRefreshSeconds: number;
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

/** A number of seconds, fractions allowed (a test's training cap of a tenth of a second). */
function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new ConfigError(`${name} must be a number of seconds from ${min} to ${max}, got "${raw}"`);
  return value;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** COLLOQUY_TRUST_PROXY: unset (trust no proxy), a hop count, or addresses/CIDRs/loopback of the proxies. */
function trustProxyOf(raw: string | undefined): boolean | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const fits = PROXY_NAMES.includes(entry) || (isIP(address) !== 0 && rest.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!fits) throw new ConfigError(`COLLOQUY_TRUST_PROXY must be a hop count, or proxy addresses/CIDRs (or loopback, linklocal, uniquelocal) separated by commas; "${entry}" is neither`);
  }
  return entries;
}

/** 64 hex digits, base64 of 32 bytes, or a passphrase; all are at least 16 characters. */
function secretKeyOf(raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  if (value === '') return null;
  if (value.length < 16) throw new ConfigError('COLLOQUY_SECRET_KEY must be 64 hex digits, base64 of 32 bytes, or a passphrase of at least 16 characters');
  return value;
}

/** A platform's API root: an absolute http(s) URL, kept without its trailing slash. */
function upstreamUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = withoutTrailingSlashes(env[name] || fallback);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

const SERVICE_HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

function botFrameworkOf(env: NodeJS.ProcessEnv): BotFrameworkConfig {
  const hosts = (env.COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS || '*.botframework.com,*.trafficmanager.net,*.botframework.azure.us')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = hosts.find((h) => !SERVICE_HOST.test(h));
  if (bad !== undefined) throw new ConfigError(`COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS must be host names separated by commas (*.example.com allowed), got "${bad}"`);
  return {
    openIdUrl: upstreamUrl(env, 'COLLOQUY_BOTFRAMEWORK_OPENID_URL', 'https://login.botframework.com/v1/.well-known/openidconfiguration'),
    tokenUrl: upstreamUrl(env, 'COLLOQUY_BOTFRAMEWORK_TOKEN_URL', 'https://login.microsoftonline.com/botframework.com/oauth2/v2.0/token'),
    serviceHosts: hosts,
    keysRefreshSeconds: integer(env, 'COLLOQUY_BOTFRAMEWORK_KEYS_REFRESH_SECONDS', 60, 0, 86_400),
  };
}

function similarityOf(env: NodeJS.ProcessEnv): number {
  const raw = (env.COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY ?? '').trim();
  if (raw === '') return DEFAULT_MIN_SIMILARITY;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < -1 || value > 1) throw new ConfigError(`COLLOQUY_AI_EMBEDDING_MIN_SIMILARITY must be a number from -1 to 1, got "${raw}"`);
  return value;
}

/** A cosine below this is no match (OpenAI's text-embedding-3 models give unrelated texts 0.0-0.2, paraphrases 0.4 and more). */
export const DEFAULT_MIN_SIMILARITY = 0.3;

function builtinModelOf(env: NodeJS.ProcessEnv): NonNullable<Config['builtinModel']> {
  const raw = (env.COLLOQUY_BUILTIN_MODEL ?? '').trim().toLowerCase();
  if (!['', 'on', 'off'].includes(raw)) throw new ConfigError(`COLLOQUY_BUILTIN_MODEL must be on or off, got "${env.COLLOQUY_BUILTIN_MODEL}"`);
  return { enabled: raw !== 'off', threads: integer(env, 'COLLOQUY_BUILTIN_MODEL_THREADS', 1, 1, 8), testHooks: env.COLLOQUY_BUILTIN_MODEL_TEST_HOOKS === '1' };
}

/** COLLOQUY_AI_BASE_URL (+ _MODEL, required with it, and _API_KEY): an OpenAI-compatible endpoint. */
function aiOf(env: NodeJS.ProcessEnv): Config['ai'] {
  const baseUrl = (env.COLLOQUY_AI_BASE_URL ?? '').trim();
  if (baseUrl === '') return null;
  let protocol = '';
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`COLLOQUY_AI_BASE_URL must be an absolute http(s) URL, got "${baseUrl}"`);
  const model = (env.COLLOQUY_AI_MODEL ?? '').trim();
  if (model === '') throw new ConfigError('COLLOQUY_AI_MODEL must name the model when COLLOQUY_AI_BASE_URL is set');
  // COLLOQUY_AI_EMBEDDING_MODEL: embeddings on the same endpoint (knowledge.md); unset: none server-wide
  const embeddingModel = (env.COLLOQUY_AI_EMBEDDING_MODEL ?? '').trim() || null;
  return { baseUrl, apiKey: env.COLLOQUY_AI_API_KEY ?? '', model, embeddingModel };
}

/** "Name <address>" or "address": one line, one address. */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

function mailOf(env: NodeJS.ProcessEnv): MailConfig | null {
  const raw = (env.COLLOQUY_SMTP_URL ?? '').trim();
  if (raw === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  // The message never repeats the value: it may hold the SMTP password.
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '' || withoutTrailingSlashes(url.pathname) !== '' || url.search !== '') {
    throw new ConfigError('COLLOQUY_SMTP_URL must be smtp://[user:password@]host[:port] or smtps://… (user and password URL-encoded)');
  }
  if (url.password !== '' && url.username === '') throw new ConfigError('COLLOQUY_SMTP_URL has a password but no user');
  const from = (env.COLLOQUY_MAIL_FROM ?? '').trim();
  if (!MAIL_FROM.test(from)) throw new ConfigError(`COLLOQUY_MAIL_FROM must be "Name <address>" or an address when COLLOQUY_SMTP_URL is set, got "${from}"`);
  return { url: raw, from, timeoutMs: Math.round(seconds(env, 'COLLOQUY_SMTP_TIMEOUT_SECONDS', 10, 0.1, 120) * 1000) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, got "${databaseUrl}"`);
  }
  const publicUrl = withoutTrailingSlashes(env.COLLOQUY_PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
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
    cachedConversations: integer(env, 'COLLOQUY_CACHED_CONVERSATIONS', CACHED_CONVERSATIONS, 0, 10_000_000),
    allowPrivateNetwork: env.COLLOQUY_ALLOW_PRIVATE_NETWORK === '1',
    jobClaimSeconds: integer(env, 'COLLOQUY_JOB_CLAIM_SECONDS', 60, 1, 3600),
    logLevel: env.LOG_LEVEL || 'info',
    secretKey: secretKeyOf(env.COLLOQUY_SECRET_KEY || env.COLLOQUY_ENCRYPTION_KEY),
    telegramApiUrl: upstreamUrl(env, 'COLLOQUY_TELEGRAM_API_URL', 'https://api.telegram.org'),
    metaGraphUrl: upstreamUrl(env, 'COLLOQUY_META_GRAPH_URL', 'https://graph.facebook.com/v23.0'),
    slackApiUrl: upstreamUrl(env, 'COLLOQUY_SLACK_API_URL', 'https://slack.com/api'),
    twilioApiUrl: upstreamUrl(env, 'COLLOQUY_TWILIO_API_URL', 'https://api.twilio.com'),
    botFramework: botFrameworkOf(env),
    trustProxy: trustProxyOf(env.COLLOQUY_TRUST_PROXY),
    ai: aiOf(env),
    embeddingMinSimilarity: similarityOf(env),
    builtinModel: builtinModelOf(env),
    training: {
      memoryMb: integer(env, 'COLLOQUY_TRAINING_MEMORY_MB', DEFAULT_TRAINING_LIMITS.memoryMb, 8, 16_384),
      timeoutMs: Math.round(seconds(env, 'COLLOQUY_TRAINING_SECONDS', DEFAULT_TRAINING_LIMITS.timeoutMs / 1000, 0.05, 3600) * 1000),
      queue: integer(env, 'COLLOQUY_TRAINING_QUEUE', DEFAULT_TRAINING_LIMITS.queue, 0, 1000),
    },
    indexingQueue: integer(env, 'COLLOQUY_INDEXING_QUEUE', 8, 0, 1000),
    checkResponses: env.COLLOQUY_CHECK_RESPONSES === '1',
    mail: mailOf(env),
  };
}
