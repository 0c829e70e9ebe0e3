// Knowledge sources through the API (knowledge.md): add, read, search and ask as an integrator would.
import assert from 'node:assert/strict';
import type { Tenant } from './fixtures.js';
import type { TestServer } from './server.js';

export const PETS_MD = `# Pets

Small dogs and cats may travel in the cabin in a closed carrier under the seat in front of you.
A pet in the cabin costs 40 euros per flight.

# Luggage

Each passenger may bring one suitcase of up to 23 kilograms in the hold.
Extra suitcases cost 30 euros each.

# Refunds

Tickets are refunded within 14 days when a flight is cancelled by the airline.`;

export const base = (tenant: Tenant) => `/bots/${tenant.botKey}/knowledge`;

export async function addSource(server: TestServer, tenant: Tenant, body: unknown): Promise<any> {
  const res = await server.client.post(base(tenant), body, { token: tenant.accountToken });
  assert.equal(res.status, 201, `POST knowledge → ${res.status} ${res.text}`);
  return res.body;
}

export async function sourceIds(server: TestServer, tenant: Tenant): Promise<string[]> {
  const res = await server.client.get(base(tenant), { token: tenant.accountToken });
  assert.equal(res.status, 200, res.text);
  return res.body.Result.map((s: any) => s.SourceId).sort();
}

export async function search(server: TestServer, tenant: Tenant, text: string, limit?: number): Promise<any[]> {
  const res = await server.client.post(`${base(tenant)}/search`, { Text: text, ...(limit ? { Limit: limit } : {}) }, { token: tenant.accountToken });
  assert.equal(res.status, 200, `search ${JSON.stringify(text)} → ${res.status} ${res.text}`);
  return res.body.Result;
}

export async function ask(server: TestServer, tenant: Tenant, text: string): Promise<any> {
  const res = await server.client.post(`${base(tenant)}/ask`, { Text: text }, { token: tenant.accountToken });
  assert.equal(res.status, 200, `ask ${JSON.stringify(text)} → ${res.status} ${res.text}`);
  return res.body;
}

/** Polls a source until it leaves `indexing` (large sources are indexed after the 201). */
export async function settled(server: TestServer, tenant: Tenant, sourceId: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const res = await server.client.get(`${base(tenant)}/${sourceId}`, { token: tenant.accountToken });
    assert.equal(res.status, 200, res.text);
    if (res.body.Status !== 'indexing') return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`source ${sourceId} still indexing`);
}

/** About `bytes` of varied English prose in Markdown sections, each paragraph naming its section. */
export function longDocument(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let section = 0; size < bytes; section++) {
    const title = `# Section ${section} about topic${section}`;
    const paragraph = Array.from({ length: 12 }, (_, i) => `Sentence ${i} of section ${section} describes topic${section} and its rules for item${section * 100 + i}.`).join(' ');
    const block = `${title}\n\n${paragraph}\n\n${paragraph}\n`;
    parts.push(block);
    size += Buffer.byteLength(block);
  }
  return parts.join('\n');
}

/** Polls the account's AiTokens until `enough` (embedding tokens are written within a second). */
export async function aiTokens(server: TestServer, t: Tenant, enough: (tokens: number) => boolean): Promise<number> {
  let tokens = 0;
  for (let i = 0; i < 100 && !enough(tokens); i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    tokens = (await server.client.get('/account/usage', { token: t.accountToken })).body.AiTokens;
  }
  return tokens;
}
