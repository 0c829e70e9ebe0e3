// Helpers for the clone suites (test/e2e/clones-*.test.ts): a small bot whose texts carry an
// edition mark, so a test can tell which content a clone runs, and calls through the real API.
import assert from 'node:assert/strict';
import type { Client } from './client.js';
import { botToken } from './fixtures.js';

const goTo = (behaviour: string, interaction?: string) => ({ type: 'goTo', mode: 'absolute', behaviour, ...(interaction ? { interaction } : {}) });
const say = (text: string) => ({ type: 'text', text });

/**
 * Three behaviours (Main, Orders, Extra), a bot-wide trigger and a variable. Every text ends with
 * `edition`; `extra: false` leaves the Extra behaviour out (nothing points at it).
 */
export function linkBot(edition: string, options: { extra?: boolean; name?: string } = {}): any {
  const behaviours: any[] = [
    {
      name: 'Main',
      start: true,
      interactions: [
        {
          name: 'Welcome',
          start: true,
          actions: [say(`Welcome to {{company}} ${edition}`), { type: 'buttons', text: 'Pick one', buttons: [{ type: 'button', text: 'Order', onClick: [goTo('Orders')] }] }],
        },
        { name: 'Sorry', fallback: true, actions: [say(`Sorry ${edition}`)] },
      ],
    },
    {
      name: 'Orders',
      interactions: [
        {
          name: 'Ask',
          start: true,
          enableUserChat: true,
          actions: [{ type: 'input', question: 'Order number?', expect: 'number', variable: 'order', onSuccess: [goTo('Orders', 'Done')] }],
        },
        { name: 'Done', actions: [say(`Order {{order}} noted ${edition}`)] },
      ],
    },
  ];
  if (options.extra !== false) behaviours.push({ name: 'Extra', interactions: [{ name: 'Info', start: true, actions: [say(`Extra ${edition}`)] }] });
  return {
    format: 'colloquy/bot@1',
    name: options.name ?? 'Linked bot',
    settings: { wordsPerMinute: 500 },
    variables: { company: 'ACME' },
    triggers: [{ match: 'help', actions: [say(`Help ${edition}`)] }],
    behaviours,
  };
}

export interface BotKeys {
  key: string;
  secret: string;
  token: string;
}

export class CloneApi {
  constructor(
    readonly client: Client,
    readonly accountKey: string,
    readonly accountToken: string,
  ) {}

  private get auth() {
    return { token: this.accountToken };
  }

  async newBot(file: unknown): Promise<BotKeys> {
    const res = await this.client.post('/bots', file, this.auth);
    assert.equal(res.status, 201, res.text);
    return this.keys(res.body.APIKey, res.body.APISecret);
  }

  async keys(key: string, secret: string): Promise<BotKeys> {
    return { key, secret, token: await botToken(this.client, this.accountKey, key, secret) };
  }

  refclone(source: { key: string; secret: string }) {
    return this.client.post('/bot/refclone', { Source: { BotAPIKey: source.key, BotSecret: source.secret } }, this.auth);
  }

  async refcloneOk(source: { key: string; secret: string }): Promise<BotKeys> {
    const res = await this.refclone(source);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['APIKey', 'APISecret']);
    return this.keys(res.body.APIKey, res.body.APISecret);
  }

  /** The bot's entry in GET /bots. */
  async listed(key: string): Promise<any> {
    const res = await this.client.get('/bots', this.auth);
    assert.equal(res.status, 200, res.text);
    return res.body.Result.find((b: any) => b.APIKey === key);
  }

  async draft(key: string): Promise<any> {
    const res = await this.client.get(`/bots/${key}`, this.auth);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async put(key: string, file: unknown) {
    return this.client.put(`/bots/${key}`, file, this.auth);
  }

  async putOk(key: string, file: unknown): Promise<number> {
    const res = await this.put(key, file);
    assert.equal(res.status, 200, res.text);
    return res.body.Version;
  }

  async publish(key: string): Promise<any> {
    const res = await this.client.post(`/bots/${key}/publish`, undefined, this.auth);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  detach(key: string, behaviour?: string) {
    return this.client.post(`/bots/${key}/detach`, behaviour === undefined ? {} : { Behaviour: behaviour }, this.auth);
  }

  /** The texts a RESET answers (top-level parts). */
  async resetTexts(token: string, userId: string): Promise<string[]> {
    return this.say(token, userId, { Command: 'RESET' });
  }

  async say(token: string, userId: string, body: Record<string, unknown>): Promise<string[]> {
    const res = await this.client.post('/custom/chat', { UserId: userId, ...body }, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.Parts.map((p: any) => p.Text);
  }
}

/** A copy of `file` with `change` applied to it (tests edit drafts they fetched). */
export function edited(file: any, change: (copy: any) => void): any {
  const copy = structuredClone(file);
  delete copy.version;
  change(copy);
  return copy;
}

export const behaviourOf = (file: any, name: string) => file.behaviours.find((b: any) => b.name === name);

export function expectError(res: { status: number; body: any; text: string }, status: number, code: string, what = ''): void {
  assert.equal(res.status, status, `${what} ${res.text}`);
  assert.equal(res.body.Code, code, `${what} ${res.text}`);
}
