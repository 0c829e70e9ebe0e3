// `colloquy test` as a user runs it (bin/colloquy.js in a folder of test files): passing and
// failing files, every step kind and stub kind, a missing stub, unusable files (exit 2), the
// reports (text, JUnit checked against the JUnit schema, JSON), coverage, and no network at all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { colloquy, folderWith, withoutTimes } from '../support/bot-test-kit.js';
import { junitProblems } from '../support/junit-schema.js';
import { FAILING_TESTS, lineOf, PASSING_TESTS, STEPS_BOT } from '../fixtures/bot-test-files.js';

const NO_NETWORK = new URL('../support/no-network.mjs', import.meta.url).pathname;

/** The lines of the report block of one test: from its ✗ line to the next test. */
function blockOf(output: string, name: string): string[] {
  const lines = output.split('\n');
  const start = lines.indexOf(`  ✗ ${name}`);
  assert.ok(start >= 0, `no failure of "${name}" in:\n${output}`);
  const end = lines.findIndex((l, i) => i > start && /^ {2}[✓✗] |^$/.test(l));
  return lines.slice(start, end < 0 ? undefined : end);
}

describe('colloquy test', () => {
  let dir: string;
  before(() => {
    dir = folderWith({ 'steps.bot.yaml': STEPS_BOT, 'pass.test.yaml': PASSING_TESTS, 'failing/fail.test.yaml': FAILING_TESTS.replace('bot: steps.bot.yaml', 'bot: ../steps.bot.yaml') });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a passing file: one line per test, a summary, exit code 0', async () => {
    const run = await colloquy(['test', 'pass.test.yaml'], { cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(withoutTimes(run.stdout), ['pass.test.yaml (Steps Bot)', '  ✓ every step kind', '  ✓ a callApi matched by a regex, and the knowledge', '2 tests, 2 passed, 0 failed (N steps)']);
  });

  test('every step kind fails where it should: file:line, the step, expected, what the bot said; exit code 1', async () => {
    const run = await colloquy(['test', 'failing'], { cwd: dir });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const file = path.join('failing', 'fail.test.yaml');
    const at = (name: string, step: string, shown: string) => `      at ${file}:${lineOf(FAILING_TESTS, name, `      - ${step}`)}  ${shown}`;
    const turn = ["      the bot's latest turn:", '        text      Hello from Paris!', '        buttons   Pick one', '          button    Weather', '          link      Docs'];
    assert.deepEqual(blockOf(run.stdout, 'bot text'), ['  ✗ bot text', at('bot text', 'bot: Goodbye', 'bot: "Goodbye"'), '      expected: "Goodbye"', '      got:      "Hello from Paris!"', ...turn]);
    assert.deepEqual(blockOf(run.stdout, 'bot contains').slice(1, 4), [
      at('bot contains', 'bot: { contains: choose }', 'bot: {"contains":"choose"}'),
      '      expected: a text containing "choose"',
      '      got:      "Pick one"',
    ]);
    assert.deepEqual(blockOf(run.stdout, 'bot regex').slice(2, 4), ['      expected: a text matching /^Bye/', '      got:      "Hello from Paris!"']);
    assert.deepEqual(blockOf(run.stdout, 'bot regex that keeps case').slice(2, 4), ['      expected: a text matching /(?-i)^hello/', '      got:      "Hello from Paris!"']);
    const anyLine = lineOf(FAILING_TESTS, 'bot any after the last text', '      - bot: { any: true }') + 2;
    assert.deepEqual(blockOf(run.stdout, 'bot any after the last text').slice(1, 4), [`      at ${file}:${anyLine}  bot: {"any":true}`, '      expected: any text', '      got:      nothing more']);
    assert.deepEqual(blockOf(run.stdout, 'parts').slice(2, 4), ['      expected: ["Weather"]', '      got:      ["Weather","Docs"]']);
    assert.deepEqual(blockOf(run.stdout, 'click').slice(1, 4), [
      at('click', 'click: Sunshine', 'click: "Sunshine"'),
      '      expected: a button "Sunshine" in the bot\'s latest turn',
      '      got:      its buttons are "Weather"',
    ]);
    assert.deepEqual(blockOf(run.stdout, 'user then bot').slice(1, 5), [
      at('user then bot', 'bot: Yes indeed', 'bot: "Yes indeed"'),
      '      expected: "Yes indeed"',
      '      got:      "No idea."',
      "      the bot's latest turn:",
    ]);
    assert.deepEqual(blockOf(run.stdout, 'at').slice(1, 4), [at('at', 'at: Main/Weather', 'at: "Main/Weather"'), '      expected: at Main/Weather', '      got:      at Main/Hello']);
    assert.deepEqual(blockOf(run.stdout, 'variable').slice(1, 4), [
      at('variable', 'variable: { city: Rome }', 'variable: {"city":"Rome"}'),
      '      expected: city = "Rome"',
      '      got:      city = "Paris"',
    ]);
    assert.deepEqual(blockOf(run.stdout, 'operator').slice(1, 4), [
      at('operator', 'operator: true', 'operator: true'),
      '      expected: handed over to a person',
      '      got:      still with the bot',
    ]);
    // `start` dropped what the bot said before it: the next `bot` reads the new conversation
    assert.deepEqual(blockOf(run.stdout, 'start').slice(2, 4), ['      expected: "No idea."', '      got:      "Hello from Paris!"']);
    assert.match(run.stdout, /\n13 tests, 0 passed, 13 failed \(\d+ steps in \d+ ms\)\n$/);
  });

  test('a call without a stub fails the test and names the call; nothing is sent', async () => {
    const run = await colloquy(['test', 'failing'], { cwd: dir });
    assert.deepEqual(blockOf(run.stdout, 'a callApi without a stub'), [
      '  ✗ a callApi without a stub',
      `      at ${path.join('failing', 'fail.test.yaml')}:${lineOf(FAILING_TESTS, 'a callApi without a stub', '      - click: Weather')}  click: "Weather"`,
      '      expected: a stub for callApi GET https://weather.example/now?city=Paris',
      '      got:      the test has none: add one under `stubs`, no call is ever made',
    ]);
    const ai = folderWith({ 'steps.bot.yaml': STEPS_BOT, 'ai.test.yaml': PASSING_TESTS.replace('ai: [{ match: ^Ann$', 'ai: [{ match: ^Bob$') });
    const noAi = await colloquy(['test'], { cwd: ai });
    assert.equal(noAi.code, 1);
    assert.match(noAi.stdout, /expected: a stub for ai with input "Ann"\n/);
    const noKnowledge = folderWith({ 'steps.bot.yaml': STEPS_BOT, 'k.test.yaml': PASSING_TESTS.replace('knowledge: [{ match: opening', 'knowledge: [{ match: closing') });
    assert.match((await colloquy(['test'], { cwd: noKnowledge })).stdout, /expected: a stub for knowledge with question "opening hours\?"\n/);
  });

  test('unusable test and bot files: exit code 2, each with its path and the problem, the others still run', async () => {
    const broken = folderWith({
      'steps.bot.yaml': STEPS_BOT,
      'ok.test.yaml': PASSING_TESTS,
      'syntax.test.yaml': 'bot: steps.bot.yaml\ntests:\n  - name: x\n    steps: [ {bot: hi}\n',
      'unknown-step.test.yaml': 'bot: steps.bot.yaml\ntests:\n  - name: x\n    steps:\n      - bot: hi\n      - say: hello\n',
      'bad-regex.test.yaml': 'bot: steps.bot.yaml\ntests:\n  - name: x\n    steps:\n      - bot: { regex: "(" }\n',
      'no-bot.test.yaml': 'bot: missing.bot.yaml\ntests:\n  - name: x\n    steps: [{ bot: hi }]\n',
      'bad-bot.test.yaml': 'bot: bad.bot.yaml\ntests:\n  - name: x\n    steps: [{ bot: hi }]\n',
      'bad.bot.yaml': 'format: colloquy/bot@1\nname: ""\nbehaviours: []\n',
    });
    const run = await colloquy(['test'], { cwd: broken });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const out = run.stdout;
    assert.match(out, /\nsyntax\.test\.yaml: cannot be used\n {2}\$ \(line \d+\): invalid YAML: /);
    assert.match(out, /\nunknown-step\.test\.yaml: cannot be used\n {2}\$\.tests\[0\]\.steps\[1\]\.say \(line 6\): is not a known member here\n/);
    assert.match(out, /\nbad-regex\.test\.yaml: cannot be used\n {2}\$\.tests\[0\]\.steps\[0\]\.bot\.regex \(line 5\): not a regular expression: /);
    assert.match(out, /\nbot file missing\.bot\.yaml \(named by no-bot\.test\.yaml\): cannot be used\n {2}\$: cannot be read: ENOENT/);
    assert.match(out, /\nbot file bad\.bot\.yaml \(named by bad-bot\.test\.yaml\): cannot be used\n {2}\$\.name: /);
    assert.match(out, /\nok\.test\.yaml \(Steps Bot\)\n {2}✓ every step kind/);
    assert.match(out, /\n2 tests, 2 passed, 0 failed, 5 file\(s\) could not be used/);
    const missing = await colloquy(['test', 'nowhere'], { cwd: broken });
    assert.equal(missing.code, 2);
    assert.match(missing.stdout, /nowhere: cannot be used\n {2}\$: no such file or folder/);
  });

  test('--reporter junit --output writes JUnit XML that the JUnit schema accepts: one <testcase> per test', async () => {
    const run = await colloquy(['test', '--reporter', 'junit', '--output', 'results.xml'], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /junit report written to results\.xml/);
    const xml = fs.readFileSync(path.join(dir, 'results.xml'), 'utf8');
    assert.deepEqual(junitProblems(xml), []);
    assert.equal(xml.match(/<testcase /g)?.length, 15);
    assert.equal(xml.match(/<failure /g)?.length, 13);
    assert.match(xml, /<testsuites name="colloquy test" tests="15" failures="13" errors="0" time="[\d.]+">/);
    assert.match(
      xml,
      /<testcase name="bot text" classname="failing\/fail\.test\.yaml" time="[\d.]+">\n {6}<failure message="line 5: expected &quot;Goodbye&quot;, got &quot;Hello from Paris!&quot;" type="StepFailed">/,
    );
    // the checker itself rejects what a CI server would reject
    assert.notDeepEqual(junitProblems(xml.replace('<testcase name="bot text"', '<testcase')), []);
    assert.notDeepEqual(junitProblems(xml.replace('failures="13"', 'failures="12"')), []);
    assert.notDeepEqual(junitProblems(xml.replace('&quot;Goodbye&quot;', '"Goodbye"')), []);
    assert.notDeepEqual(junitProblems(xml.replace('<properties>', '<propertie>')), []);
  });

  test('unusable files are <error> test cases in the JUnit report; --reporter json prints the results on stdout', async () => {
    const broken = folderWith({ 'steps.bot.yaml': STEPS_BOT, 'ok.test.yaml': PASSING_TESTS, 'no-bot.test.yaml': 'bot: missing.bot.yaml\ntests:\n  - name: x\n    steps: [{ bot: hi }]\n' });
    const junit = await colloquy(['test', '--reporter', 'junit'], { cwd: broken });
    assert.equal(junit.code, 2);
    assert.deepEqual(junitProblems(junit.stdout), []);
    assert.match(junit.stdout, /<error message="missing\.bot\.yaml cannot be used" type="FileProblem">\$: cannot be read: ENOENT/);
    const json = await colloquy(['test', '--reporter', 'json'], { cwd: dir });
    const report = JSON.parse(json.stdout);
    assert.deepEqual({ ...report.summary, ms: 0 }, { tests: 15, passed: 2, failed: 13, problems: 0, steps: 42, ms: 0 });
    const failed = report.files.find((f: { path: string }) => f.path === 'failing/fail.test.yaml').tests[0];
    assert.deepEqual(
      { ...failed, ms: 0 },
      {
        name: 'bot text',
        line: 3,
        passed: false,
        ms: 0,
        failure: {
          line: 5,
          step: 'bot: "Goodbye"',
          expected: '"Goodbye"',
          actual: '"Hello from Paris!"',
          turn: ['text      Hello from Paris!', 'buttons   Pick one', '  button    Weather', '  link      Docs'],
        },
      },
    );
  });

  test('--coverage lists the interactions and buttons no test reached', async () => {
    const only = folderWith({ 'steps.bot.yaml': STEPS_BOT, 'some.test.yaml': 'bot: steps.bot.yaml\ntests:\n  - name: hello\n    steps: [{ bot: Hello from Paris! }]\n' });
    const run = await colloquy(['test', '--coverage'], { cwd: only });
    assert.equal(run.code, 0);
    const lines = withoutTimes(run.stdout);
    assert.deepEqual(lines.slice(lines.findIndex((l) => l.startsWith('coverage of'))), [
      'coverage of Steps Bot (steps.bot.yaml): interactions 1/5, buttons 0/1',
      '  not reached: interaction Main/Weather',
      '  not reached: interaction Main/Greet',
      '  not reached: interaction Main/Person',
      '  not reached: interaction Main/Other',
      '  not pressed: button "Weather" in Main/Hello',
      '1 tests, 1 passed, 0 failed (N steps)',
    ]);
    const full = await colloquy(['test', '--coverage', 'pass.test.yaml'], { cwd: dir });
    assert.match(full.stdout, /coverage of Steps Bot \(steps\.bot\.yaml\): interactions 5\/5, buttons 1\/1\n\n/);
  });

  test('a run opens no network connection: with every connect refused, and a stub-less callApi to a listening port that sees nobody', async () => {
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const local = folderWith({
        'steps.bot.yaml': STEPS_BOT.replace('https://weather.example/now', `http://127.0.0.1:${port}/now`),
        'pass.test.yaml': PASSING_TESTS.replace('https://weather.example/now', `http://127.0.0.1:${port}/now`).replace('weather\\\\.example/now', '127\\\\.0\\\\.0\\\\.1'),
        'unstubbed.test.yaml': 'bot: steps.bot.yaml\ntests:\n  - name: weather\n    steps: [{ click: Weather }, { bot: { any: true } }]\n',
      });
      const log = path.join(local, 'network.log');
      const run = await colloquy(['test'], { cwd: local, preload: [NO_NETWORK], env: { ...process.env, NO_NETWORK_LOG: log } });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /✓ every step kind/);
      assert.match(run.stdout, /expected: a stub for callApi GET http:\/\/127\.0\.0\.1:\d+\/now\?city=Paris\n/);
      assert.equal(fs.existsSync(log), false, fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');
      assert.equal(connections, 0);
      // the preload does refuse connections (so the silence above means something)
      const probe = await colloquy(['test', '--server', `http://127.0.0.1:${port}`], {
        cwd: local,
        preload: [NO_NETWORK],
        env: { ...process.env, NO_NETWORK_LOG: log, COLLOQUY_ACCOUNT_KEY: 'acc_x' },
      });
      assert.notEqual(probe.code, 0);
      assert.match(fs.readFileSync(log, 'utf8'), /fetch/);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  test('random choices and the clock are the same on every run', async () => {
    const first = await colloquy(['test', 'examples/demo', '--reporter', 'json']);
    const second = await colloquy(['test', 'examples/demo', '--reporter', 'json']);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const strip = (text: string) => JSON.stringify(JSON.parse(text).files.map((f: any) => f.tests.map((t: any) => [t.name, t.passed, t.failure])));
    assert.equal(strip(first.stdout), strip(second.stdout));
  });

  test("the project's own examples pass", async () => {
    const run = await colloquy(['test', 'examples']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /\n14 tests, 14 passed, 0 failed/);
  });
});
