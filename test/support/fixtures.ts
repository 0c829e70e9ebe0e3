// Accounts, bots and tokens made through the real API, as an integrator would.
import fs from 'node:fs';
import type { Client } from './client.js';
import { ADMIN_TOKEN } from './server.js';

export const supportBot = (): any => JSON.parse(fs.readFileSync(new URL('../../assets/support.bot.json', import.meta.url), 'utf8'));

export interface Tenant {
  accountId: string;
  accountKey: string;
  accountToken: string;
  botKey: string;
  botSecret: string;
  botToken: string;
}

export async function createAccount(client: Client, plan: 'free' | 'standard' = 'standard', packages: string[] = []) {
  const res = await client.post('/admin/accounts', { Name: 'Test account', Plan: plan, Packages: packages }, { token: ADMIN_TOKEN });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${res.text}`);
  return res.body as { AccountId: string; AccountAPIKey: string };
}

export async function accountToken(client: Client, accountKey: string): Promise<string> {
  const res = await client.post('/authorization/integration', { AccountAPIKey: accountKey });
  if (res.status !== 200) throw new Error(`account token failed: ${res.status} ${res.text}`);
  return res.body.token;
}

export async function botToken(client: Client, accountKey: string, botKey: string, botSecret: string): Promise<string> {
  const res = await client.post('/authorization/integration', { AccountAPIKey: accountKey, BotAPIKey: botKey, BotAPISecret: botSecret });
  if (res.status !== 200) throw new Error(`bot token failed: ${res.status} ${res.text}`);
  return res.body.token;
}

/** An account (standard plan) with one bot made from `botFile` (default: the support bot). */
export async function createTenant(client: Client, botFile: unknown = supportBot(), packages: string[] = []): Promise<Tenant> {
  const account = await createAccount(client, 'standard', packages);
  const token = await accountToken(client, account.AccountAPIKey);
  const created = await client.post('/bots', botFile, { token });
  if (created.status !== 201) throw new Error(`bot creation failed: ${created.status} ${created.text}`);
  return {
    accountId: account.AccountId,
    accountKey: account.AccountAPIKey,
    accountToken: token,
    botKey: created.body.APIKey,
    botSecret: created.body.APISecret,
    botToken: await botToken(client, account.AccountAPIKey, created.body.APIKey, created.body.APISecret),
  };
}

/** The tenant with new tokens, for a test whose clock moved past their expiry. */
export async function freshTokens(client: Client, tenant: Tenant): Promise<Tenant> {
  return {
    ...tenant,
    accountToken: await accountToken(client, tenant.accountKey),
    botToken: await botToken(client, tenant.accountKey, tenant.botKey, tenant.botSecret),
  };
}
