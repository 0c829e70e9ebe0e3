import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { invalidBot, invalidBots, supportBot } from '../../test/fixtures/invalid-bots.js';
import { offThread } from '../../test/support/off-thread.js';
import { actionRegistry } from '../engine/registry.js';
import type { ActionRegistry } from './schema.js';
import { MAX_DEPTH, validateBotFile, type Problem } from './validate.js';

function problemsOf(doc: unknown, registry: ActionRegistry = actionRegistry): Problem[] {
  const result = validateBotFile(doc, registry);
  assert.equal(result.ok, false, 'expected the document to be rejected');
  return result.ok ? [] : result.problems;
}

const paths = (problems: Problem[]) => problems.map((p) => p.Path);

describe('validateBotFile: support bot and fixtures', () => {
  it('accepts the support bot', () => {
    const result = validateBotFile(supportBot());
    assert.deepEqual(result.ok ? [] : result.problems, []);
  });

  for (const fixture of invalidBots) {
    it(`reports ${fixture.rule} at ${fixture.path}, and nothing else`, () => {
      assert.deepEqual(paths(problemsOf(invalidBot(fixture))), [fixture.path]);
    });
  }
});

describe('validateBotFile', () => {
  it('reports every problem of a file with many', () => {
    const picked = [
      'unknown property at root',
      'wrong type in settings (wordsPerMinute)',
      'unknown action type',
      'two start behaviours',
      'duplicate interaction names in a behaviour',
      'goTo to a missing interaction',
      'duplicate id',
      'bad regex in input expect',
      'unknown property in an action',
      'bad format string (avatar not a URL)',
    ];
    const bot = supportBot();
    const fixtures = picked.map((rule) => invalidBots.find((f) => f.rule === rule)!);
    for (const f of fixtures) f.mutate(bot);
    assert.deepEqual(new Set(paths(problemsOf(bot))), new Set(fixtures.map((f) => f.path)));
  });

  it('names the unknown property and the allowed action types', () => {
    const bot = supportBot();
    bot.colour = 'blue';
    bot.behaviours[0].interactions[0].actions[0].type = 'say';
    const [unknown, type] = problemsOf(bot);
    assert.match(unknown!.Message, /'colour'/);
    assert.match(type!.Message, /"say"/);
    for (const t of ['text', 'goTo', 'input', 'carousel']) assert.ok(type!.Message.includes(t), type!.Message);
  });

  it('reports the errors of the action type only, once per path', () => {
    const bot = supportBot();
    bot.behaviours[0].interactions[0].actions[0] = { type: 'goTo', mode: 7, behaviour: 3, extra: 1 };
    const problems = problemsOf(bot);
    const at = '$.behaviours[0].interactions[0].actions[0]';
    assert.deepEqual(paths(problems).sort(), [`${at}.behaviour`, `${at}.extra`, `${at}.mode`]);
  });

  it('takes the save-time rules of an action type from its definition (rules.ts knows no types)', () => {
    const bot = supportBot();
    bot.behaviours[0].interactions[2].actions[2].interaction = 'Anything'; // goTo to a missing interaction
    const at = '$.behaviours[0].interactions[2].actions[2]';
    assert.deepEqual(paths(problemsOf(bot)), [`${at}.interaction`]);
    const goTo = actionRegistry.get('goTo')!;
    const unchecked = new Map([...actionRegistry, ['goTo', { ...goTo, check: undefined }]]);
    assert.equal(validateBotFile(bot, unchecked).ok, true);
    const strict = new Map([...actionRegistry, ['goTo', { ...goTo, check: () => [{ path: ['mode'], message: 'no jumping' }] }]]);
    const problems = problemsOf(supportBot(), strict);
    assert.ok(problems.length > 0);
    for (const p of problems) assert.deepEqual([p.Path.endsWith('.mode'), p.Message], [true, 'no jumping']);
  });

  it('validates with the registry it is given', () => {
    const withoutCarousel = new Map([...actionRegistry].filter(([type]) => type !== 'carousel'));
    const problems = problemsOf(supportBot(), withoutCarousel);
    assert.deepEqual(paths(problems), ['$.behaviours[0].interactions[1].actions[0].type']);
    assert.ok(!problems[0]!.Message.split('allowed types:')[1]!.includes('carousel'), problems[0]!.Message);
    // a fragment that does not declare `id` still gets one (a GUID, not required) when needsId
    const bare = new Map(
      [...actionRegistry].map(([type, def]) => {
        if (type !== 'button') return [type, def] as const;
        const { id: _id, ...properties } = def.schema.properties as Record<string, unknown>;
        return [type, { ...def, schema: { ...def.schema, required: ['type', 'id', 'text'], properties } }] as const;
      }),
    );
    const bot = supportBot();
    delete bot.behaviours[0].interactions[0].actions[2].buttons[0].id;
    assert.equal(validateBotFile(bot, bare).ok, true);
    bot.behaviours[0].interactions[0].actions[2].buttons[1].id = 'abc';
    assert.deepEqual(paths(problemsOf(bot, bare)), ['$.behaviours[0].interactions[0].actions[2].buttons[1].id']);
  });

  it('says one thing per fault', () => {
    const bot = supportBot();
    bot.behaviours[0].start = 'yes'; // not also "no start behaviour"
    bot.behaviours[1].interactions[0].actions[0].id = 'not-a-guid'; // bad GUID in schema and rules: once
    // not an integer and below the minimum: one problem saying both
    bot.behaviours[2].interactions[1].actions.push({ type: 'callApi', method: 'GET', url: 'https://example.org', timeoutMs: 0.5 });
    const problems = problemsOf(bot);
    assert.deepEqual(paths(problems), ['$.behaviours[0].start', '$.behaviours[1].interactions[0].actions[0].id', '$.behaviours[2].interactions[1].actions[1].timeoutMs']);
    assert.match(problems[2]!.Message, /integer.*; .*1/);
  });

  it('accepts and strips the server-set version', () => {
    const bot = supportBot();
    bot.version = 12;
    const result = validateBotFile(bot);
    assert.ok(result.ok);
    assert.equal('version' in result.bot, false);
  });

  it('matches goTo targets case-insensitively and skips templated names', () => {
    const bot = supportBot();
    bot.triggers[0].actions[0].behaviour = 'escalation';
    bot.triggers[0].actions[0].interaction = 'ASK FOR HUMAN';
    bot.triggers[1].actions[0].behaviour = '{{target}}';
    bot.behaviours[0].interactions[2].actions[2].interaction = 'Step {{n}}';
    assert.deepEqual(validateBotFile(bot).ok, true);
  });

  it('accepts avatar paths and a templated variableSwitch regex', () => {
    const bot = supportBot();
    bot.avatar = '/static/avatar.png';
    bot.behaviours[1].interactions[1].actions[2].onSuccess[0].value = '{{pattern}}(';
    assert.deepEqual(validateBotFile(bot).ok, true);
  });

  it('writes non-identifier keys in bracket notation', () => {
    const bot = supportBot();
    bot.variables["it's"] = 1;
    assert.deepEqual(paths(problemsOf(bot)), ["$.variables['it\\'s']"]);
  });

  it('turns garbage into problems, never exceptions', () => {
    for (const junk of [null, undefined, [], 'bot', 42, true, {}, [supportBot()], { behaviours: [null, 5, 'x', [], { interactions: {} }] }]) {
      const problems = problemsOf(junk);
      assert.ok(problems.length > 0);
      for (const p of problems) assert.ok(p.Path.startsWith('$') && p.Message.length > 0);
    }
  });

  it('refuses documents nested too deeply', () => {
    let actions: unknown[] = [{ type: 'stop' }];
    for (let i = 0; i < 5000; i++) actions = [{ type: 'tagSwitch', tag: 't', then: actions }];
    const bot = supportBot();
    bot.behaviours[0].interactions[0].actions = actions;
    const problems = problemsOf(bot);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.Message, new RegExp(`${MAX_DEPTH}`));
  });

  it('survives huge files and caps the list of problems', () => {
    const bot = supportBot();
    bot.behaviours[0].interactions[0].actions = Array.from({ length: 20000 }, (_, i) => ({ type: 'text', text: i }));
    const problems = problemsOf(bot);
    assert.equal(problems.length, 1001);
    assert.match(problems.at(-1)!.Message, /more problems/);
  });

  it('never throws on arbitrary values or randomly damaged bots', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        validateBotFile(junk);
      }),
      { numRuns: 300 },
    );
    const bot = supportBot();
    fc.assert(
      fc.property(fc.constantFrom(...invalidBots), fc.jsonValue(), fc.nat(30), (fixture, value, n) => {
        const broken = invalidBot(fixture);
        // drop a random JSON value somewhere along the first action of a random interaction
        const interactions = broken.behaviours?.[n % 3]?.interactions;
        if (Array.isArray(interactions) && interactions[0]?.actions) interactions[0].actions[n % 4] = value;
        validateBotFile(broken);
        validateBotFile({ ...bot, behaviours: value });
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateBotFile on hostile strings (issue 11)', () => {
  const VALIDATE = new URL('./validate.ts', import.meta.url);

  // The avatar pattern used to hold two overlapping runs ([^\s/?#]+[^\s]*): quadratic backtracking,
  // minutes for a long avatar with a space near its end. Off the thread so a freeze fails by timeout.
  it('refuses a 300,000-character avatar with a space promptly', { timeout: 10_000 }, async (t) => {
    const bot = supportBot();
    bot.avatar = `https://${'a'.repeat(300_000)} x`;
    const result = await offThread(VALIDATE, 'validateBotFile', [bot], t.signal);
    assert.deepEqual(result, { ok: false, problems: [{ Path: '$.avatar', Message: 'must be an absolute http(s) URL or a path starting with /' }] });
  });
});
