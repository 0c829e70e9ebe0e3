// One call to a Chatwoot installation's API (`{BaseUrl}/api/v1/…`, header `api_access_token`),
// through undici with the private-network guard's dispatcher: BaseUrl comes from an account, so
// what its name resolves to is vetted at every connection, not only at connect.
import { fetch } from 'undici';
import { outboundDispatcher } from '../../integrations/http-call.js';
import type { Credentials, SendResult } from '../messaging/model.js';
import { retryAfterMs } from '../messaging/retry-after.js';

const CALL_TIMEOUT_MS = 10_000;
const MAX_ERROR_BODY = 2000;

export async function chatwootCall(credentials: Credentials, method: 'GET' | 'POST', path: string, body: unknown, allowPrivateNetwork: boolean): Promise<SendResult> {
  const what = `Chatwoot ${path.replace(/^accounts\/\d+\/conversations\/\d+\//, '')}`;
  try {
    const response = await fetch(`${credentials.baseUrl}/api/v1/${path}`, {
      method,
      headers: { api_access_token: credentials.botToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher: outboundDispatcher(allowPrivateNetwork),
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = (await response.text()).slice(0, MAX_ERROR_BODY);
    if (response.ok) return { ok: true };
    const retry = response.status === 429 || response.status >= 500;
    const wait = retry ? retryAfterMs(response.headers.get('retry-after')) : undefined;
    return { ok: false, retry, ...(wait !== undefined ? { retryAfterMs: wait } : {}), statusCode: response.status, error: `${what}: ${response.status} ${messageOf(text)}`.trim() };
  } catch (error) {
    const timedOut = (error as Error)?.name === 'TimeoutError';
    return { ok: false, retry: true, statusCode: null, error: `${what}: ${timedOut ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : 'could not be reached (or its address is not public)'}` };
  }
}

/** Chatwoot answers errors as `{error}` or `{message}`; anything else is not worth repeating. */
function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const said = typeof parsed.error === 'string' ? parsed.error : typeof parsed.message === 'string' ? parsed.message : '';
    return said.slice(0, 200);
  } catch {
    return '';
  }
}
