// The Bot Framework's outbound side (learn.microsoft.com "Authentication with the Bot Connector
// API" and "Send and receive activities"): a token bought with the bot's app id and password
// (OAuth 2.0 client credentials, scope https://api.botframework.com/.default) and kept until shortly
// before it expires, then `POST {serviceUrl}/v3/conversations/{id}/activities` with it. Plain HTTP
// through undici: Microsoft archived its Node SDK.
import crypto from 'node:crypto';
import { fetch } from 'undici';
import type { Credentials, SendResult } from '../messaging/model.js';
import { retryAfterMs } from '../messaging/retry-after.js';

const CALL_TIMEOUT_MS = 10_000;
const MAX_ANSWER = 64 * 1024;
/** A token is bought again this long before Microsoft says it expires (clocks differ, calls take time). */
const EXPIRY_MARGIN_MS = 5 * 60_000;
const MAX_CACHED_TOKENS = 1000;
const SCOPE = 'https://api.botframework.com/.default';

type TokenAnswer = { ok: true; token: string; expiresAt: number } | { ok: false; status: number | null; reason: string };

/** The token URL of a single-tenant bot names its tenant where the multi-tenant one names botframework.com. */
export function tokenUrlOf(tokenUrl: string, tenantId: string | undefined): string {
  return tenantId ? tokenUrl.replace('/botframework.com/', `/${encodeURIComponent(tenantId)}/`) : tokenUrl;
}

const reachError = (error: unknown) => ((error as Error)?.name === 'TimeoutError' ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : 'could not be reached');

async function readAnswer(response: { text(): Promise<string> }): Promise<Record<string, unknown> | null> {
  const text = (await response.text()).slice(0, MAX_ANSWER);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Asks the token URL for a token (Azure AD answers errors as `{error, error_description}`). */
export async function requestToken(tokenUrl: string, credentials: Credentials, now = Date.now()): Promise<TokenAnswer> {
  try {
    const response = await fetch(tokenUrlOf(tokenUrl, credentials.tenantId), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.appId, client_secret: credentials.appPassword, scope: SCOPE }).toString(),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const body = await readAnswer(response);
    if (response.ok && typeof body?.access_token === 'string') {
      const seconds = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in ?? 3600);
      return { ok: true, token: body.access_token, expiresAt: now + (Number.isFinite(seconds) ? seconds : 3600) * 1000 };
    }
    const reason = typeof body?.error === 'string' ? body.error : 'no token';
    return { ok: false, status: response.status, reason: `${response.status} ${reason}` };
  } catch (error) {
    return { ok: false, status: null, reason: reachError(error) };
  }
}

/** A new password buys a new token at once; the cache's keys hold a digest of it, not the password. */
const cacheKey = (credentials: Credentials) =>
  crypto
    .createHash('sha256')
    .update(`${credentials.tenantId ?? ''}|${credentials.appId}|${credentials.appPassword}`)
    .digest('base64url');

export class BotConnector {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly tokenUrl: string) {}

  /** A token for the app, cached until shortly before it expires. */
  private async token(credentials: Credentials): Promise<TokenAnswer> {
    const key = cacheKey(credentials);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return { ok: true, ...cached };
    const answer = await requestToken(this.tokenUrl, credentials);
    if (answer.ok) {
      if (this.tokens.size >= MAX_CACHED_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
      this.tokens.set(key, { token: answer.token, expiresAt: answer.expiresAt });
    }
    return answer;
  }

  forget(credentials: Credentials): void {
    this.tokens.delete(cacheKey(credentials));
  }

  /** Sends one activity; 429 and 5xx retry (honouring Retry-After), a 401 retries with a new token, other refusals do not. */
  async send(serviceUrl: string, conversationId: string, activity: Record<string, unknown>, credentials: Credentials): Promise<SendResult> {
    const what = `Teams ${activity.type}`;
    const token = await this.token(credentials);
    if (!token.ok)
      return { ok: false, retry: token.status === null || token.status === 429 || token.status >= 500, statusCode: token.status, error: `${what}: the token URL refused: ${token.reason}` };
    try {
      const response = await fetch(`${serviceUrl.endsWith('/') ? serviceUrl.slice(0, -1) : serviceUrl}/v3/conversations/${encodeURIComponent(conversationId)}/activities`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(activity),
        redirect: 'manual',
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const body = await readAnswer(response);
      if (response.ok) return { ok: true };
      if (response.status === 401) this.forget(credentials);
      const retry = response.status === 429 || response.status >= 500 || response.status === 401;
      const wait = retry ? retryAfterMs(response.headers.get('retry-after')) : undefined;
      const error = body?.error as { code?: unknown; message?: unknown } | undefined;
      const said = typeof error?.code === 'string' ? ` ${error.code}` : '';
      return { ok: false, retry, ...(wait !== undefined ? { retryAfterMs: wait } : {}), statusCode: response.status, error: `${what}: ${response.status}${said}` };
    } catch (error) {
      return { ok: false, retry: true, statusCode: null, error: `${what}: ${reachError(error)}` };
    }
  }
}
