// The secrets API (agents.md "Secrets"): put, list (names and hosts, never a value), delete. Every
// input is bounded: the name's pattern, the value's size, how many hosts and secrets.
import { isIP } from 'node:net';
import type { BotRecord } from '../bots/model.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { SECRET_NAME } from '../shared/template.js';
import { SECRET_LIMITS, type SecretListing } from './model.js';
import type { SecretStorage } from './port.js';

const LABEL = /^[a-z0-9-]{1,63}$/;

/**
 * A host as requests are matched against it (lower case, no brackets, no final dot), or null when
 * the text is not a host name or an IP address. Written without a backtracking pattern: each label
 * is checked on its own.
 */
export function hostKey(text: string): string | null {
  const host = text
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (isIP(host) !== 0) return host;
  if (host.length === 0 || host.length > 253) return null;
  return host.split('.').every((label) => LABEL.test(label) && !label.startsWith('-') && !label.endsWith('-')) ? host : null;
}

export class BotSecrets {
  constructor(private readonly deps: { store: SecretStorage; clock: Clock }) {}

  async put(bot: BotRecord, name: string, body: { Value: string; Hosts: string[] }): Promise<void> {
    if (!SECRET_NAME.test(name)) throw new AppError('INVALID_REQUEST', 'A secret name is 1 to 64 letters, digits or underscores.');
    if (body.Value.length > SECRET_LIMITS.valueChars) throw new AppError('INVALID_REQUEST', `A secret's Value is at most ${SECRET_LIMITS.valueChars} characters.`);
    if (body.Hosts.length > SECRET_LIMITS.hosts) throw new AppError('INVALID_REQUEST', `A secret goes to at most ${SECRET_LIMITS.hosts} hosts.`);
    const hosts: string[] = [];
    for (const given of body.Hosts) {
      const host = hostKey(given);
      if (host === null)
        throw new AppError('INVALID_REQUEST', `"${given.slice(0, 100)}" is not a host name or an IP address (Hosts are host names such as shop.example, without scheme, port or path).`);
      if (!hosts.includes(host)) hosts.push(host);
    }
    if (hosts.length === 0) throw new AppError('MISSING_FIELD', 'Hosts must name at least one host the secret may be sent to.');
    const { secrets } = this.deps.store;
    const exists = (await secrets.list(bot.id)).some((s) => s.name === name);
    if (!exists && (await secrets.count(bot.id)) >= SECRET_LIMITS.perBot) {
      throw new AppError('SECRET_LIMIT', `A bot has at most ${SECRET_LIMITS.perBot} secrets: delete one first.`);
    }
    await secrets.put(bot.id, { name, value: body.Value, hosts }, this.deps.clock.now());
  }

  async list(bot: BotRecord): Promise<Array<{ Name: string; Hosts: string[]; UpdatedAt: string }>> {
    const listed: SecretListing[] = await this.deps.store.secrets.list(bot.id);
    return listed.map((s) => ({ Name: s.name, Hosts: s.hosts, UpdatedAt: new Date(s.updatedAt).toISOString() }));
  }

  /** Deleting a secret the bot does not have is not an error (the end state is the one asked for). */
  async remove(bot: BotRecord, name: string): Promise<void> {
    await this.deps.store.secrets.remove(bot.id, name);
  }
}
