// Property-based hostile requests on every route (the OpenAPI document's and the console API's):
// generated bodies, path parameters, query strings, headers and credentials. Whatever is sent:
// never a 5xx; every error is JSON with a catalogue Code at its status; a rejected request changes
// no state (our party's data through the API, and the row count of every table); members the
// server does not know, and `null` for optional members, are ignored (api.md Conventions); and the
// server answers correctly afterwards.
//
// `npm test` runs a bounded number of cases; `npm run fuzz` runs many more (FUZZ_RUNS per
// property). FUZZ_SEED replays a run; FUZZ_REPORT=1 never stops at a failure but prints the first
// reproduction of every distinct failure at the end (to survey a server that has several).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { databaseKinds } from '../support/databases.js';
import { ADMIN_TOKEN } from '../support/server.js';
import { carriesBody, isStrictObject, label, sampleOf, type RouteInfo } from '../support/routes.js';
import {
  bodyArb,
  hostileAuth,
  hostileHeaders,
  hostileQuery,
  hostileSegment,
  hugeNumberBody,
  hugeNumberQuery,
  hugeNumberText,
  loneSurrogateBody,
  membersOfType,
  smallHostileValue,
  type BodySpec,
} from './arbitraries.js';
import { describeCase, problemsOf, resolve, send, type Answer, type HostileRequest } from './requests.js';
import { familyOf, World } from './world.js';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 40));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const REPORT = process.env.FUZZ_REPORT === '1';
/** a freeze, not a time limit on answers: cases have their own 30 s guard */
const TIMEOUT = 600_000 + RUNS * 4 * 2_000;

/** A case names its route by label, so fast-check prints it short. */
type Case = Omit<HostileRequest, 'route'> & { route: string };

const sample = (route: RouteInfo): BodySpec | undefined =>
  carriesBody(route) && route.body ? { payload: JSON.stringify(isStrictObject(route.body) ? sampleOf(route.body) : {}), contentType: 'application/json', note: 'smallest valid body' } : undefined;

const paramNames = (route: RouteInfo) => [...route.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The state a reply is compared by: which reads differ, briefly. */
function differences(before: Record<string, unknown>, after: Record<string, unknown>): string | null {
  const changed: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(after[key]);
    if (a !== b) changed.push(`${key}: ${a.slice(0, 200)} → ${b.slice(0, 200)}`);
  }
  return changed.length ? changed.join('; ') : null;
}

for (const kind of databaseKinds()) {
  describe(`hostile requests on every route (${kind})`, { timeout: TIMEOUT }, () => {
    let world: World;
    const byLabel = new Map<string, RouteInfo>();
    /** FUZZ_REPORT: the first reproduction of each distinct failure */
    const findings = new Map<string, string>();

    before(async () => {
      world = await World.start(kind);
      for (const route of world.routes) byLabel.set(label(route), route);
    });
    after(async () => {
      if (REPORT) process.stdout.write(`\n${findings.size} distinct failures (${kind}):\n\n${[...findings.values()].join('\n\n')}\n`);
      await world?.close();
    });

    const routes = (filter: (route: RouteInfo) => boolean = () => true) => fc.constantFrom(...world.routes.filter(filter).map(label));

    /**
     * Sends one case, checks its answer and, when it was rejected, that nothing changed; after a
     * success the fixture is repaired. `more` adds checks of the property at hand.
     */
    async function check(c: Case, more: (answer: Answer) => string[] = () => []): Promise<Answer | null> {
      const request: HostileRequest = { ...c, route: byLabel.get(c.route)! };
      const family = familyOf(request.route);
      const seenBefore = await world.observe(family);
      const sent = resolve(request, world);
      let answer: Answer | null = null;
      const problems: string[] = [];
      try {
        answer = await send(world, sent);
        problems.push(...problemsOf(sent, answer), ...more(answer));
      } catch (error) {
        problems.push(`no answer: ${(error as Error).message}`);
      }
      if (answer && answer.status >= 400) {
        const changed = differences(seenBefore, await world.observe(family));
        if (changed) problems.push(`state changed on a rejected request: ${changed}`);
      } else {
        await world.repair();
      }
      if (problems.length > 0) {
        const reproduction = `${problems.join('; ')}\n${describeCase(request, sent, answer)}`;
        if (!REPORT) throw new Error(reproduction);
        const signature = `${c.route} ${problems.map((p) => p.replace(/[\d"'].*$/, '')).join('; ')}`;
        if (!findings.has(signature)) findings.set(signature, reproduction);
      }
      return answer;
    }

    const run = <T>(property: fc.IAsyncPropertyWithHooks<[T]>) => fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: REPORT, includeErrorInReport: true });

    test('the state reads see a change where there is one (the no-change check is not vacuous)', async () => {
      const o = world.ours;
      const c = world.client;
      const seen = { conversation: await world.observe('conversation'), bots: await world.observe('bots'), account: await world.observe('account'), none: await world.observe('none') };
      assert.equal((await c.post('/custom/chat', { UserId: o.userId, Text: 'a change' }, { token: o.tenant.botToken })).status, 200);
      assert.notDeepEqual(await world.observe('conversation'), seen.conversation);
      assert.equal((await c.post(`/bots/${o.tenant.botKey}/publish`, undefined, { token: o.tenant.accountToken })).status, 200);
      assert.notDeepEqual(await world.observe('bots'), seen.bots);
      assert.equal((await c.post('/admin/accounts', { Name: 'a change', Plan: 'standard' }, { token: ADMIN_TOKEN })).status, 201);
      assert.notDeepEqual(await world.observe('account'), seen.account);
      assert.notDeepEqual(await world.observe('none'), seen.none, 'the row counts');
      await world.repair();
    });

    test('hostile bodies on every route that takes one', async () => {
      const cases = routes(carriesBody).chain((route) => fc.record({ route: fc.constant(route), body: bodyArb(byLabel.get(route)!) }));
      await run(fc.asyncProperty(cases, async (c) => void (await check(c))));
    });

    test('hostile path parameters and query strings on every route', async () => {
      const cases = routes().chain((route) => {
        const info = byLabel.get(route)!;
        const names = paramNames(info);
        return fc.record({
          route: fc.constant(route),
          params: names.length ? fc.record(Object.fromEntries(names.map((n) => [n, hostileSegment])), { requiredKeys: [] }) : fc.constant(undefined),
          query: fc.option(hostileQuery, { nil: undefined }),
          body: fc.constant(sample(info)),
        });
      });
      await run(fc.asyncProperty(cases, async (c) => void (await check(c))));
    });

    test('hostile headers and credentials on every route', async () => {
      const cases = routes().chain((route) => fc.record({ route: fc.constant(route), auth: hostileAuth, headers: hostileHeaders, body: fc.constant(sample(byLabel.get(route)!)) }));
      await run(fc.asyncProperty(cases, async (c) => void (await check(c))));
    });

    test('lone UTF-16 surrogates in the string members of every body', async () => {
      const cases = routes((route) => carriesBody(route) && isStrictObject(route.body)).chain((route) => fc.record({ route: fc.constant(route), body: loneSurrogateBody(byLabel.get(route)!) }));
      await run(fc.asyncProperty(cases, async (c) => void (await check(c))));
    });

    test('huge integers in every numeric member, path parameter and integer query', async () => {
      const numericBody = (route: RouteInfo) => carriesBody(route) && isStrictObject(route.body) && membersOfType(route, ['integer', 'number']).length > 0;
      const inBody = routes(numericBody).chain((route) => fc.record({ route: fc.constant(route), body: hugeNumberBody(byLabel.get(route)!) }));
      const elsewhere = routes().chain((route) => {
        const info = byLabel.get(route)!;
        const names = paramNames(info);
        return fc.record({
          route: fc.constant(route),
          params: names.length ? fc.record(Object.fromEntries(names.map((n) => [n, hugeNumberText.map(encodeURIComponent)])), { requiredKeys: [] }) : fc.constant(undefined),
          query: hugeNumberQuery,
          body: fc.constant(sample(info)),
        });
      });
      await run(fc.asyncProperty(fc.oneof(inBody, elsewhere), async (c) => void (await check(c))));
    });

    test('unknown members and null for optional members are ignored, never refused', async () => {
      // Unknown names are made recognisable (Zz…), so an answer that blames one is caught.
      const unknownName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,15}$/).map((s) => `Zz${s}`);
      const strict = (route: RouteInfo) => isStrictObject(route.body);
      const cases = routes(strict).chain((route) => {
        const schema = byLabel.get(route)!.body!;
        const required = new Set<string>(schema.required ?? []);
        const optional = Object.keys(schema.properties ?? {}).filter((name) => !required.has(name));
        return fc
          .record({
            route: fc.constant(route),
            unknown: fc.dictionary(unknownName, smallHostileValue, { maxKeys: 3 }),
            nulls: optional.length ? fc.subarray(optional) : fc.constant([] as string[]),
          })
          .filter(({ unknown, nulls }) => Object.keys(unknown).length + nulls.length > 0);
      });
      await run(
        fc.asyncProperty(cases, async ({ route, unknown, nulls }) => {
          const plain = sample(byLabel.get(route)!)!;
          // The smallest valid body twice (a route that creates answers differently the second
          // time, e.g. 201 then 409), then with the extra members: it must answer as the second did.
          await check({ route, body: plain });
          const again = await check({ route, body: plain });
          const extras = { ...(JSON.parse(plain.payload as string) as object), ...unknown, ...Object.fromEntries(nulls.map((n) => [n, null])) };
          const names = [...Object.keys(unknown), ...nulls];
          await check({ route, body: { payload: JSON.stringify(extras), contentType: 'application/json', note: `with ${names.join(', ')}` } }, (answer) => {
            const problems: string[] = [];
            const blamed = Object.keys(unknown).filter(
              (n) =>
                String(answer.json?.Field ?? '')
                  .split('.')
                  .includes(n) || String(answer.json?.Message ?? '').includes(n),
            );
            if (blamed.length) problems.push(`an answer that blames the unknown ${blamed.join(', ')}`);
            const was = `${again?.status} ${again?.json?.Code ?? ''}`.trim();
            const is = `${answer.status} ${answer.json?.Code ?? ''}`.trim();
            if (again && is !== was) problems.push(`${is} where the same body without ${names.join(', ')} answered ${was} (unknown members and null must be ignored)`);
            return problems;
          });
        }),
      );
    });

    test('the server answers correctly afterwards', async () => {
      const health = await world.client.get('/health');
      assert.equal(health.status, 200, health.text);
      await world.repair();
      assert.ok(await world.intact(world.ours), 'our party works');
      // a party made now (account, bot, tokens, conversations, operator) works end to end
      const fresh = await world.createParty('after');
      const turn = await world.client.post('/custom/chat', { UserId: 'after-check', Text: 'restart' }, { token: fresh.tenant.botToken });
      assert.equal(turn.status, 200, turn.text);
      assert.deepEqual(
        turn.body.Parts.map((p: any) => p.Text),
        ['Welcome to ACME support!', 'What can I do for you?'],
      );
      assert.ok(await world.intact(fresh));
    });
  });
}
