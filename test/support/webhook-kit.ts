// Helpers of the webhook tests (test/e2e/webhooks-*.test.ts): a small bot, the webhook settings,
// injections and the deliveries list, all through the public API.
import assert from 'node:assert/strict';
import { botFile, chatOk, text } from './chat-kit.js';
import type { Client } from './client.js';
import type { Tenant } from './fixtures.js';

interface HasClient {
  client: Client;
}

/** Start "Hi there" (one part); "hello" → "Hello!" + "How are you?" (one reply, two parts); anything else → "Sorry?". */
export const hookBot = (extra: Record<string, any> = {}) =>
  botFile(
    [
      { name: 'Start', actions: [text('Hi there')] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    { triggers: [{ match: 'hello', actions: [text('Hello!'), text('How are you?')] }], ...extra },
  );

/** PATCH /bots/{key}/settings with `channels.custom`; must answer 200. */
export async function setCustomChannel(server: HasClient, tenant: Tenant, custom: { webhookUrl?: string | null; includeAllChannels?: boolean }): Promise<void> {
  const res = await server.client.patch(`/bots/${tenant.botKey}/settings`, { channels: { custom } }, { token: tenant.accountToken });
  assert.equal(res.status, 200, `PATCH settings → ${res.status} ${res.text}`);
}

/** POST /custom/chat with DIRECTION BOT or OPERATOR on an existing conversation; returns the reply. */
export function inject(server: HasClient, tenant: Tenant, userId: string, said: string, direction: 'BOT' | 'OPERATOR' = 'OPERATOR'): Promise<any> {
  return chatOk(server as any, tenant.botToken, { UserId: userId, Text: said }, { DIRECTION: direction });
}

/** GET /bots/{key}/deliveries (newest first) with the account token, or `token`. */
export async function deliveries(server: HasClient, tenant: Tenant, token = tenant.accountToken): Promise<any[]> {
  const res = await server.client.get(`/bots/${tenant.botKey}/deliveries`, { token });
  assert.equal(res.status, 200, `GET deliveries → ${res.status} ${res.text}`);
  return res.body.Result;
}

/** Polls the deliveries list until `predicate` holds; returns that list. */
export async function waitForDeliveries(server: HasClient, tenant: Tenant, predicate: (list: any[]) => boolean, what: string, timeoutMs = 15_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveries(server, tenant);
    if (predicate(list)) return list;
    if (Date.now() > deadline) assert.fail(`deliveries: ${what} did not happen in ${timeoutMs} ms; list: ${JSON.stringify(list)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET /account/usage (account token). */
export async function usage(server: HasClient, tenant: Tenant): Promise<any> {
  const res = await server.client.get('/account/usage', { token: tenant.accountToken });
  assert.equal(res.status, 200, `GET /account/usage → ${res.status} ${res.text}`);
  return res.body;
}

/** A manual clock: `now` moves only when a test moves it. */
export class ManualClock {
  constructor(public ms: number) {}
  advance(ms: number): void {
    this.ms += ms;
  }
}

export { text };
