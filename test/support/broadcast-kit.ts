// The broadcasts tests' shared pieces (broadcasts.md): a bot with a promotion behaviour, a server
// whose clock the test moves, and the API calls with their expected statuses.
import assert from 'node:assert/strict';
import { clockFrom } from '../../src/shared/clock.js';
import { botFile, text } from './chat-kit.js';
import { eventually } from './console-kit.js';
import type { TestDatabase } from './databases.js';
import { createTenant, type Tenant } from './fixtures.js';
import { startTestServerOn, type TestServer } from './server.js';

export const B_MORE = '5b0a1c2a-0d4b-4d8e-9a57-0000000000e1';

/** Main says hello and asks a question; Promo is the broadcast: a text with a button; Moving goes on to Main/Asked. */
export const promoBot = (settings: Record<string, unknown> = {}) =>
  botFile(
    [
      { name: 'Hello', actions: [text('Hello!'), { type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Asked' }] },
      { name: 'Asked', actions: [text('What is your name?')] },
      { name: 'Fallback', fallback: true, actions: [text('You said: {{last_user_text}}')] },
    ],
    {
      settings,
      behaviours: [
        {
          name: 'Promo',
          interactions: [
            {
              name: 'Offer',
              start: true,
              actions: [
                {
                  type: 'buttons',
                  text: 'Our sale starts today, {{first_name|friend}}! {{promo_code}}',
                  buttons: [{ type: 'button', id: B_MORE, text: 'Tell me more', onClick: [text('Here is more.')] }],
                },
              ],
            },
          ],
        },
      ],
    },
  );

/** A server on `database` whose clock is real time plus what the test moved it by. */
export async function movableServer(database: TestDatabase, env: Record<string, string> = {}) {
  let shift = 0;
  const server = await startTestServerOn(database, { COLLOQUY_TOKEN_MINUTES: '525600', ...env }, { clock: clockFrom(() => Date.now() + shift) });
  return { server, move: (ms: number) => void (shift += ms), now: () => Date.now() + shift };
}

export class Broadcasts {
  constructor(
    private readonly server: TestServer,
    private readonly tenant: Tenant,
  ) {}

  static async forNewBot(server: TestServer, bot = promoBot()): Promise<{ tenant: Tenant; api: Broadcasts }> {
    const tenant = await createTenant(server.client, bot);
    return { tenant, api: new Broadcasts(server, tenant) };
  }

  private path(rest = '') {
    return `/bots/${this.tenant.botKey}/broadcasts${rest}`;
  }

  async create(body: Record<string, unknown>): Promise<any> {
    const res = await this.server.client.post(this.path(), { Name: 'Sale', Behaviour: 'Promo', ...body }, { token: this.tenant.accountToken });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  raw(method: 'get' | 'post', rest: string, body?: unknown) {
    return method === 'get' ? this.server.client.get(this.path(rest), { token: this.tenant.accountToken }) : this.server.client.post(this.path(rest), body, { token: this.tenant.accountToken });
  }

  async get(id: string): Promise<any> {
    const res = await this.raw('get', `/${id}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async preview(audience: Record<string, unknown>): Promise<{ Count: number; Sample: string[] }> {
    const res = await this.raw('post', '/preview', { Audience: audience });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async cancel(id: string): Promise<any> {
    const res = await this.raw('post', `/${id}/cancel`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  /** Waits until the broadcast satisfies `check` (the scheduler runs in the background). */
  async until(id: string, check: (b: any) => boolean, what: string, ms = 15_000): Promise<any> {
    let last: any = null;
    const ok = await eventually(async () => check((last = await this.get(id))), ms, 50);
    assert.ok(ok, `${what}; last seen: ${JSON.stringify(last)}`);
    return last;
  }
}
