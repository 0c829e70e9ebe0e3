// The fixture of the hostile-request properties and of the route-auth test: one server (in this
// process, on a database of its own), two parties — "ours", whose state hostile requests aim at,
// and "theirs", another account whose credentials must not reach ours — and cheap reads of the
// state that a rejected request must leave as it was.
import assert from 'node:assert/strict';
import { addOperator, botIdOf, openRaw, signIn, type RawDatabase } from '../support/console-kit.js';
import type { CallOptions, Client } from '../support/client.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../support/databases.js';
import { createTenant, supportBot, type Tenant } from '../support/fixtures.js';
import { accessOf, consoleApiRoutes, discoverRoutes, type RouteAccess, type RouteContext, type RouteInfo } from '../support/routes.js';
import { ADMIN_TOKEN, startTestServerOn, type TestServer } from '../support/server.js';

export const PASSWORD = 'correct horse battery';

export interface Party {
  label: string;
  tenant: Tenant;
  botName: string;
  webKey: string;
  botId: string;
  /** a custom-channel conversation, in state 0, whose history holds `marker` */
  userId: string;
  marker: string;
  /** a web-channel conversation */
  webUserId: string;
  operatorEmail: string;
  /** the session token, and the Cookie header that carries it */
  session: string;
  cookie: string;
  /** a `view` share link of `userId` */
  shareCode: string;
  /** a canned response of the account (console) */
  cannedId: string;
  /** a team of the account's operators (console) */
  teamId: string;
  /** the signed-in operator's id (the Team page's routes name operators) */
  operatorId: string;
  /** GET /bots/{key} right after creation: a 2xx that changed the bot calls for a new party */
  draft: unknown;
}

/** Which state a rejected request of a route must leave unchanged (besides the row counts). */
export type Family = 'account' | 'bots' | 'conversation' | 'none';

export function familyOf(route: Pick<RouteInfo, 'method' | 'template'>): Family {
  const access = accessOf(route);
  if (access === 'admin' || route.template.startsWith('/account/') || route.template === '/authorization/integration') return 'account';
  if (access === 'account' || access === 'accountOrBot' || route.template === '/bots/backup') return 'bots';
  if (access === 'open' && !route.template.startsWith('/console/')) return 'none';
  return 'conversation';
}

let serial = 0;

export class World {
  ours!: Party;
  theirs!: Party;
  /** every route: the OpenAPI document's and the console API's */
  routes: RouteInfo[] = [];
  private raw!: RawDatabase;
  private tables: string[] = [];

  private constructor(
    readonly server: TestServer,
    private readonly database: TestDatabase,
  ) {}

  static async start(kind: DatabaseKind, env: Record<string, string> = {}): Promise<World> {
    const database = await createTestDatabase(kind);
    const world = new World(await startTestServerOn(database, env), database);
    try {
      world.ours = await world.createParty('ours');
      // master-bot lets "theirs" reach the source check of /bot/refclone (else 403 PACKAGE_REQUIRED first)
      world.theirs = await world.createParty('theirs', ['master-bot']);
      world.routes = [...(await discoverRoutes(world.client, world.context())), ...consoleApiRoutes(world.server.running.app, world.context())];
      world.raw = await openRaw(database);
      world.tables = await listTables(world.raw, kind);
    } catch (error) {
      // a half-made fixture must not keep the test process alive
      await world.close().catch(() => undefined);
      throw error;
    }
    return world;
  }

  get client(): Client {
    return this.server.client;
  }

  async close(): Promise<void> {
    await this.raw?.close();
    await this.server.close();
    await this.database.drop();
  }

  /** Path parameters and tokens of a party (ours by default), for templates and discoverRoutes. */
  context(party: Party = this.ours): RouteContext {
    return {
      botKey: party.tenant.botKey,
      webKey: party.webKey,
      accountId: party.tenant.accountId,
      userId: party.userId,
      shareCode: party.shareCode,
      botId: party.botId,
      cannedId: party.cannedId,
      teamId: party.teamId,
      operatorId: party.operatorId,
      tokens: { admin: ADMIN_TOKEN, account: party.tenant.accountToken, bot: party.tenant.botToken },
    };
  }

  /** The headers that carry the credential a route takes (none for path-carried ones). */
  credentialHeaders(access: RouteAccess, party: Party = this.ours): Record<string, string> {
    switch (access) {
      case 'admin':
        return { authorization: `Bearer ${ADMIN_TOKEN}` };
      case 'account':
        return { authorization: `Bearer ${party.tenant.accountToken}` };
      case 'bot':
      case 'apihook':
      case 'accountOrBot':
        return { authorization: `Bearer ${party.tenant.botToken}` };
      case 'session':
        return { cookie: party.cookie };
      default:
        return {};
    }
  }

  async createParty(label: string, packages: string[] = []): Promise<Party> {
    const n = ++serial;
    const c = this.client;
    const botName = `Fuzz ${label} ${n}`;
    const tenant = await createTenant(c, { ...supportBot(), name: botName }, packages);
    const listed = await c.get('/bots', { token: tenant.accountToken });
    const webKey: string = listed.body.Result.find((b: any) => b.APIKey === tenant.botKey).WebKey;
    const userId = `${label}-user-${n}`;
    expectStatus(await c.post('/custom/chat', { UserId: userId }, { token: tenant.botToken }), 200, 'start the conversation');
    const marker = `marker-${label}-${n}`;
    expectStatus(await c.post('/custom/chat', { UserId: userId, Text: marker }, { token: tenant.botToken }), 200, 'say the marker');
    const web = await c.post(`/web/${webKey}/conversation`, {});
    expectStatus(web, 200, 'start the web conversation');
    const operatorEmail = `${label}-${n}@example.org`;
    const operatorId = (await addOperator(c, tenant.accountId, operatorEmail, PASSWORD)).OperatorId;
    const cookie = await signIn(c, operatorEmail, PASSWORD, tenant.accountId);
    const share = await c.post('/custom/share', { UserId: userId, Mode: 'view', Hours: 24 }, { token: tenant.botToken });
    expectStatus(share, 200, 'create a share link');
    const canned = await c.post('/console/api/canned', { Shortcut: `hello-${n}`, Text: `Hello from ${label}` }, { headers: { cookie } });
    expectStatus(canned, 201, 'create a canned response');
    const team = await c.post('/console/api/teams', { Name: `Team ${label}` }, { headers: { cookie } });
    expectStatus(team, 201, 'create a team');
    const draft = await c.get(`/bots/${tenant.botKey}`, { token: tenant.accountToken });
    return {
      label,
      tenant,
      botName,
      webKey,
      botId: await botIdOf(this.server, tenant.botKey),
      userId,
      marker,
      webUserId: web.body.UserId,
      operatorEmail,
      session: cookie.split('=')[1],
      cookie,
      shareCode: String(share.body.Url).split('/share/')[1],
      cannedId: String(canned.body.CannedId),
      teamId: String(team.body.TeamId),
      operatorId,
      draft: draft.body,
    };
  }

  /**
   * True when every credential and conversation of the party still works as created: a request
   * that succeeded may have deleted the bot, rotated its secret, logged the operator out, taken
   * the conversation over or replaced the bot file — all legitimate for a 2xx.
   */
  async intact(party: Party): Promise<boolean> {
    const c = this.client;
    const t = party.tenant;
    const [state, draft, web, session, share] = await Promise.all([
      c.get(`/custom/state?userid=${encodeURIComponent(party.userId)}`, { token: t.botToken }),
      c.get(`/bots/${t.botKey}`, { token: t.accountToken }),
      c.get(`/web/${party.webKey}/config`),
      c.get(`/console/api/conversations/${party.botId}/${encodeURIComponent(party.webUserId)}`, { headers: { cookie: party.cookie } }),
      c.get(`/share/${party.shareCode}/api/conversation`),
    ]);
    return (
      state.status === 200 &&
      state.body.State === 0 &&
      draft.status === 200 &&
      sameJson(draft.body, party.draft) &&
      web.status === 200 &&
      session.status === 200 &&
      session.body.Conversation?.State === 0 &&
      share.status === 200
    );
  }

  /** Strings of a party that no answer to another party may contain. */
  secretsOf(party: Party): string[] {
    const t = party.tenant;
    return [
      t.accountId,
      t.accountKey,
      t.accountToken,
      t.botKey,
      t.botSecret,
      t.botToken,
      party.botName,
      party.webKey,
      party.botId,
      party.userId,
      party.marker,
      party.webUserId,
      party.session,
      party.shareCode,
      party.operatorEmail,
    ];
  }

  /** Replaces a party that a successful request changed; then waits for the state to settle. */
  async repair(): Promise<void> {
    await this.settle();
    if (!(await this.intact(this.ours))) this.ours = await this.createParty('ours');
    if (!(await this.intact(this.theirs))) this.theirs = await this.createParty('theirs', ['master-bot']);
    await this.settle();
  }

  /** Row counts of every table, in one query. */
  async rowCounts(): Promise<Record<string, number>> {
    const [row] = await this.raw.all(`SELECT ${this.tables.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`);
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  }

  /**
   * Work a successful request started may still be running (a forget deletes right after its
   * answer): wait until two reads of the row counts 30 ms apart agree.
   */
  async settle(): Promise<void> {
    let previous = JSON.stringify(await this.rowCounts());
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const now = JSON.stringify(await this.rowCounts());
      if (now === previous) return;
      previous = now;
    }
  }

  /**
   * What a rejected request of this family must not change: our party's state through the API
   * (status and body of each read), our account's usage, the other account as the admin sees it,
   * and the row count of every table. The last two can be left out where the other party's own
   * successful requests are expected.
   */
  async observe(family: Family | 'all', options: { rows?: boolean; theirs?: boolean } = {}): Promise<Record<string, unknown>> {
    const o = this.ours;
    const t = o.tenant;
    const reads: Record<string, [string, CallOptions]> = { usage: ['/account/usage', { token: t.accountToken }] };
    if (family === 'account' || family === 'all') {
      reads.account = [`/admin/accounts/${t.accountId}`, { token: ADMIN_TOKEN }];
      if (options.theirs !== false) reads.theirAccount = [`/admin/accounts/${this.theirs.tenant.accountId}`, { token: ADMIN_TOKEN }];
    }
    if (family === 'bots' || family === 'all') {
      reads.bots = ['/bots', { token: t.accountToken }];
      reads.draft = [`/bots/${t.botKey}`, { token: t.accountToken }];
      reads.versions = [`/bots/${t.botKey}/versions`, { token: t.accountToken }];
      reads.deliveries = [`/bots/${t.botKey}/deliveries`, { token: t.accountToken }];
    }
    if (family === 'conversation' || family === 'all') {
      reads.conversation = [`/console/api/conversations/${o.botId}/${encodeURIComponent(o.userId)}`, { headers: { cookie: o.cookie } }];
      reads.web = [`/console/api/conversations/${o.botId}/${encodeURIComponent(o.webUserId)}`, { headers: { cookie: o.cookie } }];
      reads.values = [`/custom/values?userid=${encodeURIComponent(o.userId)}`, { token: t.botToken }];
      reads.list = ['/console/api/conversations', { headers: { cookie: o.cookie } }];
      reads.canned = ['/console/api/canned', { headers: { cookie: o.cookie } }];
      reads.teams = ['/console/api/teams', { headers: { cookie: o.cookie } }];
      reads.shared = [`/share/${o.shareCode}/api/conversation`, {}];
    }
    const names = Object.keys(reads);
    const answers = await Promise.all(names.map((name) => this.client.get(reads[name][0], reads[name][1])));
    const seen: Record<string, unknown> = options.rows === false ? {} : { rows: await this.rowCounts() };
    names.forEach((name, i) => (seen[name] = [answers[i].status, answers[i].body]));
    return seen;
  }
}

async function listTables(raw: RawDatabase, kind: DatabaseKind): Promise<string[]> {
  const rows =
    kind === 'sqlite'
      ? await raw.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      : await raw.all("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1");
  // The console's message index (FTS5 and its progress, migration 022) is derived data that the
  // maintenance pass fills in the background from messages stored earlier: it changes between two
  // requests whatever they were.
  return rows.map((r) => String(r.name)).filter((name) => /^\w+$/.test(name) && !name.startsWith('message_search'));
}

function expectStatus(res: { status: number; text: string }, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
