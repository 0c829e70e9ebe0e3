// Small helpers for bot-management tests: reading a bot's state through the API and walking the
// actions of a bot file.
import assert from 'node:assert/strict';
import type { Client } from './client.js';

/** Texts of the parts a RESET returns for `userId` (top-level parts only). */
export async function resetTexts(client: Client, token: string, userId: string): Promise<string[]> {
  const res = await client.post('/custom/chat', { UserId: userId, Command: 'RESET' }, { token });
  assert.equal(res.status, 200, res.text);
  return res.body.Parts.map((p: any) => p.Text);
}

/** The bot's `Version` as GET /bots lists it. */
export async function listedVersion(client: Client, accountToken: string, botKey: string): Promise<number> {
  const res = await client.get('/bots', { token: accountToken });
  assert.equal(res.status, 200, res.text);
  const bot = res.body.Result.find((b: any) => b.APIKey === botKey);
  assert.ok(bot, `bot ${botKey} is listed`);
  return bot.Version;
}

/** Every object with a `type` in the document, depth first, in document order. */
export function actionsOf(node: unknown, out: any[] = []): any[] {
  if (Array.isArray(node)) for (const item of node) actionsOf(item, out);
  else if (node !== null && typeof node === 'object') {
    if (typeof (node as any).type === 'string') out.push(node);
    for (const value of Object.values(node)) actionsOf(value, out);
  }
  return out;
}

const CLICKABLE = new Set(['button', 'input']);

/** Removes the ids of buttons and inputs in place; returns the bot. */
export function withoutIds(bot: any): any {
  for (const action of actionsOf(bot)) if (CLICKABLE.has(action.type)) delete action.id;
  return bot;
}

/** The ids of buttons and inputs, in document order. */
export const idsOf = (bot: unknown): unknown[] =>
  actionsOf(bot)
    .filter((a) => CLICKABLE.has(a.type))
    .map((a) => a.id);

/** The bot file without what the server adds on save (behaviour apiKeys, the version). */
export function withoutServerFields(file: any): any {
  const copy = structuredClone(file);
  delete copy.version;
  for (const behaviour of copy.behaviours ?? []) delete behaviour.apiKey;
  return copy;
}

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
