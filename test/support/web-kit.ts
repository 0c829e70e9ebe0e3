// Helpers for the web channel tests: a bot's web key, and calls to /web/{key}/... as a browser
// on some origin would make them.
import assert from 'node:assert/strict';
import type { Client, Response } from './client.js';
import type { Tenant } from './fixtures.js';

/** The bot's web key, as GET /bots lists it. */
export async function webKeyOf(client: Client, tenant: Tenant): Promise<string> {
  const res = await client.get('/bots', { token: tenant.accountToken });
  assert.equal(res.status, 200, res.text);
  const bot = res.body.Result.find((b: any) => b.APIKey === tenant.botKey);
  assert.match(bot.WebKey, /^web_/);
  return bot.WebKey;
}

/** A call to the web channel; `origin` is sent as the Origin header when given. */
export function web(client: Client, method: string, key: string, path: string, body?: unknown, origin?: string): Promise<Response> {
  return client.call(method, `/web/${encodeURIComponent(key)}/${path}`, body, { headers: origin ? { origin } : {} });
}

/** POST /web/{key}/conversation that must answer 200. */
export async function startWeb(client: Client, key: string, body: Record<string, unknown> = {}, origin?: string): Promise<any> {
  const res = await web(client, 'POST', key, 'conversation', body, origin);
  assert.equal(res.status, 200, `start → ${res.status} ${res.text}`);
  return res.body;
}

/** POST /web/{key}/messages that must answer 200. */
export async function sendWeb(client: Client, key: string, body: Record<string, unknown>, origin?: string): Promise<any> {
  const res = await web(client, 'POST', key, 'messages', body, origin);
  assert.equal(res.status, 200, `send ${JSON.stringify(body)} → ${res.status} ${res.text}`);
  return res.body;
}

/** Turns the bot's web channel on or off, with these allowed origins. */
export async function setWeb(client: Client, tenant: Tenant, web: { enabled?: boolean; allowedOrigins?: string[]; acceptVariables?: string[] }): Promise<void> {
  const res = await client.patch(`/bots/${tenant.botKey}/settings`, { channels: { web } }, { token: tenant.accountToken });
  assert.equal(res.status, 200, res.text);
}
