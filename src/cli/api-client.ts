// The HTTP API as the command line uses it (push, pull, import, `test --server`): account and bot
// tokens from keys, JSON requests and file uploads, and the server's error answers turned into
// ApiError with their Code.
import { withoutTrailingSlashes } from '../shared/trailing-slashes.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the CLI prints or picks from whatever JSON the server answered
  body: any;
  headers: Headers;
}

export class ApiClient {
  constructor(readonly base: string) {
    this.base = withoutTrailingSlashes(base);
  }

  async call(
    method: string,
    path: string,
    options: { token?: string; json?: unknown; text?: string; form?: FormData; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | FormData | undefined;
    // a form sets its own content type (multipart/form-data with its boundary)
    if (options.form !== undefined) body = options.form;
    else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.text !== undefined) {
      body = options.text;
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, body });
    } catch (error) {
      throw new ApiError(0, 'UNREACHABLE', `cannot reach ${this.base}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`, {});
    }
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: see `body` above
    let parsed: any = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    if (response.status >= 400) {
      const code = typeof parsed?.Code === 'string' ? parsed.Code : `HTTP_${response.status}`;
      const message = typeof parsed?.Message === 'string' ? parsed.Message : String(text).slice(0, 200);
      throw new ApiError(response.status, code, message, typeof parsed === 'object' && parsed !== null ? parsed : {});
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  async accountToken(accountKey: string): Promise<string> {
    return (await this.call('POST', '/authorization/integration', { json: { AccountAPIKey: accountKey } })).body.token;
  }

  /** A bot token from the account key and the bot key alone: the account may read the bot's secret. */
  async botToken(accountKey: string, botKey: string): Promise<string> {
    const account = await this.accountToken(accountKey);
    const bots = (await this.call('GET', '/bots', { token: account })).body.Result as Array<{ APIKey: string; APISecret: string }>;
    const bot = bots.find((b) => b.APIKey === botKey);
    if (!bot) throw new ApiError(404, 'BOT_NOT_FOUND', `the account has no bot with API key ${botKey}`, {});
    return (await this.call('POST', '/authorization/integration', { json: { AccountAPIKey: accountKey, BotAPIKey: botKey, BotAPISecret: bot.APISecret } })).body.token;
  }
}

/** The account key from the environment, where CI keeps its secrets. */
export function accountKeyFromEnv(): string {
  const key = process.env.COLLOQUY_ACCOUNT_KEY;
  if (!key) throw new UsageError('COLLOQUY_ACCOUNT_KEY is not set: the account API key the server gave you');
  return key;
}

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
