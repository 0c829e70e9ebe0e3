// `colloquy test [paths…]` (testing.md): exit 0 when every test passes, 1 when one fails, 2 when a
// test file or bot file cannot be used. The human report goes to stdout; --reporter junit|json
// writes the machine report to --output (or stdout, the human one then going to stderr).
import fs from 'node:fs';
import type { Command } from 'commander';
import { exitCodeOf, runTestFiles, type RunOptions, type RunResult } from '../bot-testing/run.js';
import { jsonReport, junitXml } from '../bot-testing/report-files.js';
import { TextReporter } from '../bot-testing/report-text.js';
import { accountKeyFromEnv, ApiClient, UsageError } from './api-client.js';
import { ServerBots, ServerSession, skippedStubNotes } from './server-session.js';

export interface TestCommandOptions {
  reporter?: string;
  output?: string;
  coverage?: boolean;
  server?: string;
  bot?: string;
  quiet?: boolean;
}

const REPORTERS = ['text', 'junit', 'json'];

/** Runs the tests and reports them; resolves to the exit code. */
export async function testCommand(paths: string[], options: TestCommandOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const reporter = options.reporter ?? 'text';
  if (!REPORTERS.includes(reporter)) throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}`);
  // the machine report owns stdout when it has no file of its own
  const human = reporter !== 'text' && !options.output ? (l: string) => process.stderr.write(`${l}\n`) : out;
  const text = new TextReporter(options.quiet ? () => {} : human);
  const run: RunOptions = { coverage: options.coverage, onFile: (f) => text.file(f), onTest: (t) => text.test(t) };
  if (options.server) {
    const api = new ApiClient(options.server);
    const bots = new ServerBots(api, accountKeyFromEnv(), options.bot ?? process.env.COLLOQUY_BOT_KEY);
    human(`running against the live bot on ${api.base} (custom channel)`);
    run.session = async (bot, test, coverage) => new ServerSession(api, await bots.tokenFor(bot), bot, test, coverage);
    run.notesFor = skippedStubNotes;
  }
  const startedAt = new Date();
  const result: RunResult = await runTestFiles(paths, run);
  if (result.coverage) text.coverage(result.coverage);
  text.summary(result);
  if (reporter !== 'text') {
    const report = reporter === 'junit' ? junitXml(result, startedAt) : jsonReport(result);
    if (options.output) {
      fs.writeFileSync(options.output, report);
      human(`${reporter} report written to ${options.output}`);
    } else process.stdout.write(report);
  }
  return exitCodeOf(result);
}

export function registerTestCommand(program: Command): void {
  program
    .command('test [paths...]')
    .description('run conversation tests (*.test.yaml / *.test.json) on the engine, without a server (docs/testing.md)')
    .option('--reporter <name>', 'text (default), junit or json')
    .option('--output <file>', 'write the junit or json report to this file')
    .option('--coverage', 'list the interactions and buttons no test reached')
    .option('--server <url>', 'run against the live bot on this server (COLLOQUY_ACCOUNT_KEY; --bot or the bot file name picks the bot)')
    .option('--bot <apiKey>', 'with --server: the bot to talk to (or COLLOQUY_BOT_KEY)')
    .action(async (paths: string[], options: TestCommandOptions) => {
      process.exitCode = await testCommand(paths, options);
    });
}
