// Every route, read from /openapi.json (and the console API from the server's router, since its
// cookie-authenticated routes stay out of the document), refuses a missing credential, a
// credential of the wrong kind and another account's credential (api.md "Credentials",
// decisions.md for the web key, share links and console sessions). Each refusal changes nothing;
// where another account's credential may be used (it names nothing of ours), its answer holds
// nothing of ours and our data stays as it was. The credential each route takes is derived from
// its path (accessOf), so a new route is covered, or the test says which rule it needs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readEvents } from '../support/console-kit.js';
import { databaseKinds } from '../support/databases.js';
import { supportBot } from '../support/fixtures.js';
import { accessOf, carriesBody, label, sampleOf, isStrictObject, type RouteAccess, type RouteInfo } from '../support/routes.js';
import { ADMIN_TOKEN } from '../support/server.js';
import { World, type Party } from '../fuzz/world.js';

const BEARER: RouteAccess[] = ['admin', 'account', 'bot', 'apihook', 'accountOrBot'];
/** Which tokens each bearer route takes. */
const TAKES: Record<string, Array<'admin' | 'account' | 'bot'>> = { admin: ['admin'], account: ['account'], bot: ['bot'], apihook: ['bot'], accountOrBot: ['account', 'bot'] };

/** An import's multipart form (importers.md): a one-group Typebot export. */
function importForm(): FormData {
  const typebot = {
    version: '6.1',
    name: 'Imported by the test',
    events: [{ id: 'e', type: 'start', outgoingEdgeId: 'edge' }],
    groups: [{ id: 'g', title: 'Hello', blocks: [{ id: 'b', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Hi' }] }] } }] }],
    edges: [{ id: 'edge', from: { eventId: 'e' }, to: { groupId: 'g' } }],
  };
  const form = new FormData();
  form.append('file', new Blob([JSON.stringify(typebot)]), 'typebot.json');
  return form;
}

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

interface Expected {
  status: number;
  code: string;
}

/** What is sent, the request, its extra headers, and the refusal it must get. */
type Refusal = [string, Call, Record<string, string>, Expected];

/** Path parameter names of a template, in both notations. */
const has = (route: RouteInfo, name: string) => route.template.includes(`{${name}}`);

/**
 * A request to `route` that our own credential would have answered (so a refusal is the
 * credential's doing), with `party`'s path-carried credential and `ours`' data named in it.
 */
function callFor(route: RouteInfo, ours: Party, pathParty: Party = ours, replace: Partial<Record<'key' | 'code', string>> = {}): Call {
  const t = ours.tenant;
  const values: Record<string, string> = {
    APIKey: t.botKey,
    AccountId: t.accountId,
    DeliveryId: 'no-such-delivery',
    key: replace.key ?? pathParty.webKey,
    code: replace.code ?? pathParty.shareCode,
    botId: ours.botId,
    userId: ours.userId,
    userid: ours.userId,
    cannedId: ours.cannedId,
    teamId: ours.teamId,
    operatorId: ours.operatorId,
    mode: 'view',
    hours: '1',
    Version: '1',
  };
  let path = route.template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'x'));
  const headers: Record<string, string> = {};
  const l = label(route);
  if (['GET /custom/position', 'GET /custom/values', 'GET /custom/state'].includes(l)) path += `?userid=${encodeURIComponent(ours.userId)}`;
  if (l === 'GET /custom/value') path += `?userid=${encodeURIComponent(ours.userId)}&type=variable&name=company`;
  if (l === 'GET /web/{key}/events' || l === 'GET /web/{key}/queue') path += `?userid=${encodeURIComponent(ours.webUserId)}`;
  if (l === 'GET /console/api/search') path += '?q=hello';
  if (route.template.startsWith('/apihook/')) headers['user-id'] = ours.userId;
  const bodies: Record<string, unknown> = {
    'POST /custom/chat': { UserId: ours.userId, Command: 'READY' },
    'POST /apihook/chat': { Command: 'READY' },
    'POST /apihook/status': { UpdateType: 'set-var', Name: 'company', Value: 'changed' },
    'POST /custom/state': { userid: ours.userId, state: 'takeover', operator: '*' },
    'POST /custom/share': { UserId: ours.userId, Mode: 'takeover', Hours: 1 },
    'POST /bot/refclone': { Source: { BotAPIKey: t.botKey, BotSecret: t.botSecret } },
    'POST /bot/clone': { Source: { BotAPIKey: t.botKey, BotSecret: t.botSecret }, Destination: { BotName: 'Copy', Variables: [] } },
    'POST /bots/{APIKey}/detach': { Behaviour: 'Main' },
    'POST /bots/{APIKey}/rollback': { Version: 1 },
    'POST /console/api/bots/{botId}/rollback': { Version: 1 },
    'POST /console/api/bots/{botId}/knowledge/search': { Text: 'pets' },
    'POST /console/api/bots/{botId}/knowledge/ask': { Text: 'pets' },
    'POST /bots/{APIKey}/nlp/parse': { Text: 'where is my order' },
    'PUT /bots/{APIKey}/ai': { BaseUrl: 'https://ai.example.org/v1', Model: 'm', ApiKey: 'sk-ours' },
    'PATCH /bots/{APIKey}/settings': { simplifiedAuth: true },
    'PATCH /admin/accounts/{AccountId}': { Plan: 'free' },
    'POST /web/{key}/conversation': { UserId: ours.webUserId },
    'POST /web/{key}/messages': { UserId: ours.webUserId, Text: 'hello' },
    'POST /share/{code}/api/messages': { Text: 'hello' },
    'POST /console/api/conversations/{botId}/{userId}/messages': { Text: 'hello' },
    'POST /console/api/conversations/{botId}/{userId}/ban': { Days: 1 },
    'POST /console/api/conversations/{botId}/{userId}/notes': { Text: 'a note' },
    'POST /console/api/canned': { Shortcut: 'from-test', Text: 'hello' },
    'PUT /console/api/canned/{cannedId}': { Shortcut: 'from-test', Text: 'hello' },
    'POST /console/api/conversations/{botId}/{userId}/transfer': { OperatorId: 'someone' },
    'POST /console/api/conversations/{botId}/{userId}/snooze': { Minutes: 60 },
    'POST /console/api/teams': { Name: 'A team' },
    'PUT /console/api/teams/{teamId}/members': { OperatorIds: [] },
    'PUT /console/api/me/avatar': { AvatarUrl: null },
    'POST /console/api/bots/{botId}/broadcasts': { Name: 'Sale', Behaviour: 'Main', Audience: { UserIds: [ours.userId] } },
    'POST /console/api/bots/{botId}/broadcasts/preview': { Audience: { UserIds: [ours.userId] } },
    'POST /console/api/bots': { Name: 'Made by the test', TemplateId: 'empty' },
    'POST /console/api/bots/{botId}/duplicate': { Name: 'A copy' },
    'PATCH /console/api/bots/{botId}': { Name: 'Renamed' },
    'POST /console/api/team': { Email: 'invited-by-test@example.org', Role: 'agent' },
    'PATCH /console/api/team/{operatorId}': { Role: 'agent' },
    'POST /bots/import': importForm(),
    'POST /bots/import/preview': importForm(),
    'POST /console/api/bots/import': importForm(),
    'POST /console/api/bots/import/preview': importForm(),
  };
  let body = bodies[l];
  if (body === undefined && carriesBody(route)) {
    if (route.body && route.body.type === undefined) body = supportBot();
    else if (route.body && isStrictObject(route.body)) body = sampleOf(route.body);
    else body = {};
  }
  return { method: route.method, path, headers, body };
}

/** Bot-token routes that name no conversation: another bot's token answers about its own bot. */
const OWN_BOT_ROUTES = /^(GET \/(custom|apihook)\/config|GET \/bots\/backup|POST \/(custom|apihook)\/chat)$/;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const cookie = (value: string) => ({ cookie: `colloquy_console=${value}` });

for (const kind of databaseKinds()) {
  describe(`every route refuses a missing, wrong or foreign credential (${kind})`, () => {
    let world: World;
    before(async () => {
      world = await World.start(kind);
    });
    after(() => world?.close());

    const send = (call: Call, extra: Record<string, string>) => world.client.call(call.method, call.path, call.body, { headers: { ...call.headers, ...extra } });

    /** Sends each refusal and checks its status and Code. */
    async function sendRefusals(route: RouteInfo, cases: Refusal[], failures: string[]) {
      for (const [what, call, headers, expected] of cases) {
        const res = await send(call, headers);
        if (res.status !== expected.status || res.body?.Code !== expected.code) {
          failures.push(`${label(route)} with ${what}: expected ${expected.status} ${expected.code}, got ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }

    /**
     * Sends every route's refusals; none may change our state. The state is read once before and
     * once after all of them (reading it around each route was most of this file's time); if it
     * changed, the refusals are sent again route by route to name the ones that change it.
     */
    async function expectRefusals(plan: Array<[RouteInfo, Refusal[]]>, failures: string[]) {
      const before = JSON.stringify(await world.observe('all'));
      for (const [route, cases] of plan) await sendRefusals(route, cases, failures);
      if (JSON.stringify(await world.observe('all')) === before) return;
      failures.push('refused requests changed our state');
      for (const [route, cases] of plan) {
        const start = JSON.stringify(await world.observe('all'));
        await sendRefusals(route, cases, []);
        if (JSON.stringify(await world.observe('all')) !== start) failures.push(`${label(route)}: a refused request changed our state`);
      }
    }

    test('the route list holds the OpenAPI routes and the console API, and a rule covers each', () => {
      const names = world.routes.map(label);
      for (const known of [
        'POST /custom/chat',
        'GET /bots/{APIKey}',
        'POST /admin/accounts',
        'GET /web/{key}/config',
        'GET /share/{code}/api/conversation',
        'GET /console/api/me',
        'POST /console/api/conversations/{botId}/{userId}/takeover',
      ]) {
        assert.ok(names.includes(known), `${known} in ${names.join(', ')}`);
      }
      for (const route of world.routes) accessOf(route);
    });

    test('a missing credential: 401 TOKEN_MISSING (bearer, session cookie); an empty web key 404 BOT_NOT_FOUND; an empty share code 400; an unknown ChannelId 404', async () => {
      const failures: string[] = [];
      const plan: Array<[RouteInfo, Refusal[]]> = [];
      for (const route of world.routes) {
        const access = accessOf(route);
        if (access === 'open') continue;
        const call =
          access === 'webKey' ? callFor(route, world.ours, world.ours, { key: '' }) : access === 'shareCode' ? callFor(route, world.ours, world.ours, { code: '' }) : callFor(route, world.ours);
        const expected: Expected =
          access === 'webKey'
            ? { status: 404, code: 'BOT_NOT_FOUND' }
            : access === 'shareCode'
              ? { status: 400, code: 'INVALID_REQUEST' }
              : access === 'platform'
                ? { status: 404, code: 'NOT_FOUND' }
                : { status: 401, code: 'TOKEN_MISSING' };
        plan.push([route, [['no credential', call, {}, expected]]]);
      }
      await expectRefusals(plan, failures);
      assert.deepEqual(failures, []);
    });

    test('a credential of the wrong kind: 403 TOKEN_SCOPE for a valid token, 401 TOKEN_INVALID for keys, secrets, sessions and codes', async () => {
      const failures: string[] = [];
      const o = world.ours;
      const t = o.tenant;
      const tokens = { admin: ADMIN_TOKEN, account: t.accountToken, bot: t.botToken };
      // Credentials that are no bearer token anywhere (the bot API key is one only on /apihook).
      const notTokens: Record<string, string> = { 'account API key': t.accountKey, 'bot API secret': t.botSecret, 'web key': o.webKey, 'console session': o.session, 'share code': o.shareCode };
      const plan: Array<[RouteInfo, Refusal[]]> = [];
      for (const route of world.routes) {
        const access = accessOf(route);
        const call = callFor(route, o);
        const cases: Refusal[] = [];
        if (BEARER.includes(access)) {
          for (const [name, token] of Object.entries(tokens)) {
            if (!TAKES[access].includes(name as 'admin')) cases.push([`the ${name} token`, call, bearer(token), { status: 403, code: 'TOKEN_SCOPE' }]);
          }
          const keys = access === 'apihook' ? notTokens : { ...notTokens, 'bot API key (simplified auth off)': t.botKey };
          for (const [name, value] of Object.entries(keys)) cases.push([`the ${name} as bearer`, call, bearer(value), { status: 401, code: 'TOKEN_INVALID' }]);
        }
        if (access === 'session') {
          for (const [name, value] of Object.entries({ ...tokens, ...notTokens, 'bot API key': t.botKey })) {
            if (name !== 'console session') cases.push([`the ${name} as session cookie`, call, cookie(value), { status: 401, code: 'TOKEN_INVALID' }]);
          }
          cases.push(['the account token as bearer, no cookie', call, bearer(t.accountToken), { status: 401, code: 'TOKEN_MISSING' }]);
        }
        if (access === 'webKey') {
          for (const [name, value] of Object.entries({
            'bot API key': t.botKey,
            'account API key': t.accountKey,
            'bot API secret': t.botSecret,
            'console session': o.session,
            'share code': o.shareCode,
          })) {
            cases.push([`the ${name} as web key`, callFor(route, o, o, { key: value }), {}, { status: 404, code: 'BOT_NOT_FOUND' }]);
          }
        }
        if (access === 'shareCode') {
          for (const [name, value] of Object.entries({ 'web key': o.webKey, 'bot API key': t.botKey, 'account API key': t.accountKey, 'console session': o.session })) {
            cases.push([`the ${name} as share code`, callFor(route, o, o, { code: value }), {}, { status: 404, code: 'SHARE_NOT_FOUND' }]);
          }
          // a view link is a share link of the wrong kind for writing
          if (label(route) === 'POST /share/{code}/api/messages') cases.push(['a view link', call, {}, { status: 403, code: 'SHARE_READ_ONLY' }]);
        }
        plan.push([route, cases]);
      }
      await expectRefusals(plan, failures);
      assert.deepEqual(failures, []);
    });

    test("another account's credential reaches nothing of ours: refused where it names our data, otherwise its own data only", async () => {
      const failures: string[] = [];
      /** What a refusal looks like for a route, or null where it names nothing of ours. */
      const refusalOf = (route: RouteInfo): Expected | null => {
        const access = accessOf(route);
        const l = label(route);
        if (access === 'admin' || has(route, 'APIKey')) return { status: 403, code: 'TOKEN_SCOPE' };
        if (['POST /bot/refclone', 'POST /bot/clone'].includes(l)) return { status: 404, code: 'BOT_NOT_FOUND' };
        if ((access === 'bot' || access === 'apihook') && !OWN_BOT_ROUTES.test(l)) return { status: 404, code: 'CONVERSATION_NOT_FOUND' };
        // A conversation of our bot, or (analytics) our bot itself: either answers as a missing one.
        if (access === 'session' && has(route, 'botId')) return { status: 404, code: has(route, 'userId') ? 'CONVERSATION_NOT_FOUND' : 'BOT_NOT_FOUND' };
        if (access === 'session' && has(route, 'cannedId')) return { status: 404, code: 'CANNED_RESPONSE_NOT_FOUND' };
        if (access === 'session' && has(route, 'teamId')) return { status: 404, code: 'TEAM_NOT_FOUND' };
        if (access === 'session' && has(route, 'operatorId')) return { status: 404, code: 'OPERATOR_NOT_FOUND' };
        if (l === 'POST /web/{key}/messages' || l === 'POST /web/{key}/typing' || l === 'GET /web/{key}/events' || l === 'GET /web/{key}/queue') return { status: 404, code: 'CONVERSATION_NOT_FOUND' };
        if (l === 'POST /share/{code}/api/messages') return { status: 403, code: 'SHARE_READ_ONLY' };
        if (access === 'platform') return { status: 404, code: 'NOT_FOUND' };
        return null;
      };
      const secured = world.routes.filter((route) => accessOf(route) !== 'open');
      // Refusals first; then the routes that act on the other account's own data, the chat routes
      // last (they start a conversation of theirs that has our user id: user ids are per bot).
      const isChat = (route: RouteInfo) => /\/(custom|apihook)\/chat$/.test(route.template);
      const ordered = [...secured.filter((r) => refusalOf(r)), ...secured.filter((r) => !refusalOf(r) && !isChat(r)), ...secured.filter((r) => !refusalOf(r) && isChat(r))];
      const refusals: Array<[RouteInfo, Refusal[]]> = [];
      for (const route of ordered) {
        const access = accessOf(route);
        const o = world.ours;
        const them = world.theirs;
        const l = label(route);
        const foreign: Record<string, string> =
          access === 'session'
            ? { cookie: them.cookie }
            : ['admin', 'account', 'accountOrBot'].includes(access)
              ? bearer(them.tenant.accountToken)
              : BEARER.includes(access)
                ? bearer(them.tenant.botToken)
                : {};
        const call = callFor(route, o, them);
        const expected = refusalOf(route);
        if (expected) {
          const cases: Refusal[] = [["the other account's credential", call, foreign, expected]];
          if (access === 'accountOrBot') cases.push(["the other account's bot token", call, bearer(them.tenant.botToken), expected]);
          refusals.push([route, cases]);
          continue;
        }
        // the refusals come first in `ordered`: all sent before the first allowed route
        if (refusals.length > 0) await expectRefusals(refusals.splice(0), failures);
        // Allowed: it acts on the other account's own data. Ours stays as it was, and the answer
        // holds nothing of ours (a chat answer echoes the user id it was sent).
        const before = await world.observe('all', { rows: false, theirs: false });
        if (route.template.endsWith('/events')) {
          const stream = await readEvents(world.server.url + call.path, { headers: foreign, until: () => true, timeoutMs: 5000 });
          if (stream.status !== 200) failures.push(`${l}: the other account's own stream → ${stream.status} ${stream.body.slice(0, 160)}`);
        } else {
          const res = await send(call, foreign);
          const leaked = world.secretsOf(o).filter((secret) => res.text.includes(secret) && !(secret === o.userId && isChat(route)));
          if (res.status >= 300) failures.push(`${l}: the other account on its own data → ${res.status} ${res.text.slice(0, 160)}`);
          if (leaked.length) failures.push(`${l}: the other account's answer holds our ${leaked.join(', ')}`);
          if (l === 'POST /web/{key}/conversation' && res.body?.UserId === o.webUserId) failures.push(`${l}: the other bot reused our web user id`);
          await world.repair();
        }
        if (JSON.stringify(await world.observe('all', { rows: false, theirs: false })) !== JSON.stringify(before)) failures.push(`${l}: the other account's request changed our state`);
      }
      await expectRefusals(refusals, failures);
      assert.deepEqual(failures, []);
    });

    test("another account's console stream and share link never carry our conversation's events", async () => {
      const o = world.ours;
      const them = world.theirs;
      const chat = (party: Party, text: string) => world.client.post('/custom/chat', { UserId: party.userId, Text: text }, { token: party.tenant.botToken });
      const theirs = (events: any[]) => events.some((e) => e.UserId === them.userId && JSON.stringify(e).includes('theirs-turn'));
      // Events arrive in the order they were published: ours is published first, so once theirs
      // has arrived, ours would have too.
      for (const url of [`${world.server.url}/console/api/events`, `${world.server.url}/share/${them.shareCode}/api/events`]) {
        const read = await readEvents(url, {
          headers: url.includes('/console/') ? { cookie: them.cookie } : {},
          opened: async () => {
            assert.equal((await chat(o, 'ours-turn')).status, 200);
            assert.equal((await chat(them, 'theirs-turn')).status, 200);
          },
          until: theirs,
          timeoutMs: 15_000,
        });
        assert.equal(read.status, 200, read.body);
        assert.ok(theirs(read.events), `their own event arrives on ${url}: ${JSON.stringify(read.events)}`);
        const leaked = read.events.filter((e) => e.UserId === o.userId || e.BotId === o.botId || JSON.stringify(e).includes('ours-turn'));
        assert.deepEqual(leaked, [], `nothing of ours on ${url}`);
      }
    });
  });
}
