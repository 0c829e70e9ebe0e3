// One call to Twilio's REST API (api.twilio.com/2010-04-01), through undici's fetch as the Meta
// channels do: HTTP basic auth with the Account SID and Auth Token, form-encoded arguments, JSON
// answers (`{code, message, more_info, status}` on errors). COLLOQUY_TWILIO_API_URL is set by whoever
// runs the server, so no private-network guard here.
import { fetch } from 'undici';
import type { SendResult } from '../messaging/model.js';
import { retryAfterMs } from '../messaging/retry-after.js';

const CALL_TIMEOUT_MS = 10_000;
const MAX_ERROR_BODY = 64 * 1024;

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
}

/** `GET|POST {apiUrl}/2010-04-01/Accounts/{Sid}{path}`; the answer's status and JSON (null when not JSON). */
async function call(
  apiUrl: string,
  account: TwilioAccount,
  path: string,
  form?: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> | null; headers: Headers | { get(name: string): string | null } }> {
  const response = await fetch(`${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}${path}`, {
    method: form ? 'POST' : 'GET',
    headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = (await response.text()).slice(0, MAX_ERROR_BODY);
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an HTML error page from a proxy: the status says enough
  }
  return { status: response.status, body, headers: response.headers };
}

const reachError = (error: unknown) => ((error as Error)?.name === 'TimeoutError' ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : 'could not be reached');
const described = (status: number, body: Record<string, unknown> | null) =>
  `${status}${typeof body?.code === 'number' ? ` (${body.code})` : ''} ${typeof body?.message === 'string' ? body.message : ''}`.trim();

/** Reads the account: null when Twilio accepts the credentials, else Twilio's reason. */
export async function checkAccount(apiUrl: string, account: TwilioAccount): Promise<string | null> {
  try {
    const { status, body } = await call(apiUrl, account, '.json');
    return status >= 200 && status < 300 ? null : described(status, body);
  } catch (error) {
    return `Twilio ${reachError(error)}`;
  }
}

/** Sends one message; 429 and 5xx retry (honouring Retry-After), other refusals do not. */
export async function sendMessage(apiUrl: string, account: TwilioAccount, form: Record<string, string>): Promise<SendResult> {
  try {
    const { status, body, headers } = await call(apiUrl, account, '/Messages.json', form);
    if (status >= 200 && status < 300) return { ok: true };
    const retry = status === 429 || status >= 500;
    const wait = retry ? retryAfterMs(headers.get('retry-after')) : undefined;
    return { ok: false, retry, ...(wait !== undefined ? { retryAfterMs: wait } : {}), statusCode: status, error: `Twilio Messages.json: ${described(status, body)}` };
  } catch (error) {
    return { ok: false, retry: true, statusCode: null, error: `Twilio Messages.json: ${reachError(error)}` };
  }
}
