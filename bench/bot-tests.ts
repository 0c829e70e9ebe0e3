// What `colloquy test` costs on 1,000 steps (issue 26): 100 tests × 10 steps on the support-desk
// example bot. Each run is a fresh process, as in CI: (1) the command as a user runs it
// (bin/colloquy.js), its wall time from spawn to exit and the run's own figure (the summary's
// "steps in … ms": from the start of the run, test files read and the bot validated, to the end);
// (2) the same work in phases, with the CPU time of each (a loaded machine stretches wall time,
// CPU time much less). `npm run bench:bot-tests [-- --runs N]`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BOT = path.join(ROOT, 'examples', 'support', 'support.bot.json');
const TESTS = 100;

function thousandSteps(dir: string): string {
  const one = (n: number) => `  - name: tracking ${n}
    steps:
      - bot: Welcome to ACME support!
      - bot: What can I do for you?
      - click: Track an order
      - bot: { contains: order number }
      - user: "123456"
      - bot: Order 123456 is on its way.
      - bot: { regex: "e-mail you updates" }
      - user: ann@example.org
      - bot: Thanks, we will write to ann@example.org.
      - variable: { email: ann@example.org }
`;
  const file = path.join(dir, 'thousand.test.yaml');
  fs.writeFileSync(file, `bot: ${BOT}\ntests:\n${Array.from({ length: TESTS }, (_, i) => one(i)).join('')}`);
  return file;
}

function run(args: string[]): Promise<{ ms: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdout, code }));
  });
}

/** In a fresh process: each phase's wall and CPU milliseconds, printed as one JSON line. */
async function phases(file: string): Promise<void> {
  const out: Record<string, { wall: number; cpu: number }> = {};
  const phase = async (name: string, work: () => Promise<unknown> | unknown) => {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    await work();
    const used = process.cpuUsage(cpu);
    out[name] = { wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 };
  };
  let mod: typeof import('../src/bot-testing/run.js');
  await phase('imports', async () => (mod = await import('../src/bot-testing/run.js')));
  const testFile = await import('../src/bot-testing/test-file.js');
  const bots = await import('../src/bot-testing/bot-under-test.js');
  await phase('read the test file', () => testFile.readTestFile(file));
  await phase('validate and compile the bot', () => bots.loadBot(BOT));
  await phase('whole run, cold (1,000 steps)', () => mod.runTestFiles([file]));
  await phase('whole run, warm (1,000 steps)', () => mod.runTestFiles([file]));
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  if (process.argv[2] === '--phases') return phases(process.argv[3]!);
  const at = process.argv.indexOf('--runs');
  const runs = at > 0 ? Number(process.argv[at + 1]) : 5;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-bench-tests-'));
  try {
    const file = thousandSteps(dir);
    const walls: number[] = [];
    const reported: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await run([path.join(ROOT, 'bin', 'colloquy.js'), 'test', file, '--reporter', 'json']);
      if (r.code !== 0) throw new Error(`colloquy test exited ${r.code}`);
      const summary = JSON.parse(r.stdout).summary;
      if (summary.steps !== TESTS * 10) throw new Error(`${summary.steps} steps`);
      walls.push(r.ms);
      reported.push(summary.ms);
    }
    const phased: Array<Record<string, { wall: number; cpu: number }>> = [];
    for (let i = 0; i < runs; i++) {
      const r = await run(['--import', 'tsx', fileURLToPath(import.meta.url), '--phases', file]);
      phased.push(JSON.parse(r.stdout.trim().split('\n').at(-1)!));
    }
    const say = (line: string) => process.stdout.write(`${line}\n`);
    say(`colloquy test on ${TESTS * 10} steps (${TESTS} tests), median of ${runs} fresh processes; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
    say(`  the command, spawn to exit:                 ${median(walls).toFixed(0)} ms wall`);
    say(`  the run after start (its summary figure):   ${median(reported).toFixed(0)} ms wall`);
    for (const name of Object.keys(phased[0]!)) {
      say(`  ${`${name}:`.padEnd(43)} ${median(phased.map((p) => p[name]!.wall)).toFixed(0)} ms wall, ${median(phased.map((p) => p[name]!.cpu)).toFixed(0)} ms CPU`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
