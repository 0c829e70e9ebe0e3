// Helpers for the console single sign-on tests: the account's settings through the admin API, and
// a whole sign-in as a browser makes it (start → the provider double → our callback), with what
// our callback answered: a session cookie and /console, or /console?sso_error=<Code> and none.
import assert from 'node:assert/strict';
import type { OidcDouble } from './oidc-double.js';
import { ADMIN_TOKEN, type TestServer } from './server.js';
import { SESSION_COOKIE } from './console-kit.js';

export function ssoSettings(double: OidcDouble, extra: Record<string, unknown> = {}) {
  return { Issuer: double.issuer, ClientId: double.clientId, ClientSecret: double.clientSecret, Domains: ['shop.example'], ...extra };
}

export async function putSso(server: TestServer, accountId: string, body: Record<string, unknown>) {
  return server.client.put(`/admin/accounts/${accountId}/sso`, body, { token: ADMIN_TOKEN });
}

export interface CallbackAnswer {
  status: number;
  location: string;
  /** `colloquy_console=<token>` when a session was opened, else null */
  cookie: string | null;
  /** the Code in `?sso_error=`, or null */
  error: string | null;
}

/** GET without following redirects. */
export async function getManual(url: string): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return res;
}

export async function answerOf(res: Response): Promise<CallbackAnswer> {
  const location = res.headers.get('location') ?? '';
  const set = res.headers.get('set-cookie');
  const match = set ? new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(set) : null;
  return { status: res.status, location, cookie: match ? `${SESSION_COOKIE}=${match[1]}` : null, error: new URL(location, 'http://x').searchParams.get('sso_error') };
}

/** Start → provider → the callback URL the provider sent the browser to (not yet opened). */
export async function throughProvider(server: TestServer, double: OidcDouble, email = 'ann@shop.example'): Promise<string> {
  const start = await getManual(`${server.url}/console/sso/start?email=${encodeURIComponent(email)}`);
  assert.equal(start.status, 302);
  const location = start.headers.get('location')!;
  assert.ok(location.startsWith(double.issuer), `sent to the provider, not ${location}`);
  return (await double.follow(location, server.url)).callbackUrl;
}

/** A whole sign-in: what our callback answered. */
export async function ssoSignIn(server: TestServer, double: OidcDouble, email?: string): Promise<CallbackAnswer> {
  return answerOf(await getManual(await throughProvider(server, double, email)));
}

/** A loopback port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const net = await import('node:net');
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as import('node:net').AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
