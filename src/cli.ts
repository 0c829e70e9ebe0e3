// colloquy serve | migrate | account create | bot import | bot export | test | dev | push | pull | import
// The server is imported only by the commands that run it: `colloquy test` starts without it.
// first: a build folder in use is marked before anything else is loaded from it
import './shared/build-users.js';
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { Services } from './http/services.js';
import { registerBotFileCommands } from './cli/push-pull.js';
import { registerImportCommand } from './cli/import-command.js';
import { registerDevCommand } from './cli/dev-command.js';
import { registerTestCommand } from './cli/test-command.js';
import { reportCliError } from './cli/errors.js';
import { loadConfig } from './config.js';
import { AppError } from './shared/errors.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function withServices<T>(work: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const [{ createServices }, { openMigratedStore }] = await Promise.all([import('./wiring.js'), import('./main.js')]);
  // Progress goes to stderr so that `bot export` prints nothing but the bot file on stdout.
  const store = await openMigratedStore(config, (line) => process.stderr.write(`colloquy: ${line}\n`));
  try {
    const { services } = await createServices(config, store);
    try {
      return await work(services);
    } finally {
      await services.events.close?.();
    }
  } finally {
    await store.close();
  }
}

const program = new Command('colloquy').description('Colloquy chatbot hosting server');

program
  .command('serve', { isDefault: true })
  .description('start the server (PORT, HOST, DATABASE_URL, COLLOQUY_DATA_DIR, ... from the environment)')
  .action(async () => {
    const config = loadConfig();
    const { start } = await import('./main.js');
    const { demoInstructions, seedDemo } = await import('./demo.js');
    say(`colloquy: opening ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`);
    const running = await start(config, {
      logger: { level: config.logLevel },
      log: (line) => say(`colloquy: ${line}`),
    });
    say(`colloquy: listening on ${running.url} (public URL ${config.publicUrl})`);
    if (running.adminTokenGenerated) {
      say(`colloquy: admin token (shown once, keep it; or set COLLOQUY_ADMIN_TOKEN): ${running.adminTokenGenerated}`);
    }
    if (config.demo) {
      const keys = await seedDemo(running.services);
      if (keys) say(`\n${demoInstructions(config.publicUrl, keys)}\n`);
    }
    const stop = async (signal: string) => {
      say(`colloquy: ${signal} received, finishing in-flight requests`);
      await running.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });

program
  .command('migrate')
  .description('apply database migrations and exit')
  .action(async () => {
    const config = loadConfig();
    const { openMigratedStore } = await import('./main.js');
    const store = await openMigratedStore(config, (line) => say(`colloquy: ${line}`));
    await store.close();
    say('colloquy: database is up to date');
  });

const account = program.command('account').description('manage accounts');
account
  .command('create')
  .description('create an account and print its id and API key')
  .requiredOption('--name <name>', 'account name')
  .option(
    '--plan <plan>',
    'free or standard',
    (value) => {
      if (value !== 'free' && value !== 'standard') throw new InvalidArgumentError('plan must be free or standard');
      return value;
    },
    'standard',
  )
  .option('--package <package...>', 'packages, e.g. master-bot')
  .action(async (options: { name: string; plan: 'free' | 'standard'; package?: string[] }) => {
    await withServices(async (services) => {
      const created = await services.accounts.create({ name: options.name, plan: options.plan, packages: options.package });
      say(`account created: ${created.name} (${created.plan})`);
      say(`  AccountId     ${created.id}`);
      say(`  AccountAPIKey ${created.apiKey}`);
    });
  });

const bot = program.command('bot').description('import and export bot files');
bot
  .command('import <file>')
  .description('create a bot from a bot file (JSON or YAML) in an account')
  .requiredOption('--account <id-or-key>', 'account id or account API key')
  .action(async (file: string, options: { account: string }) => {
    await withServices(async (services) => {
      const owner = await services.accounts.byIdOrKey(options.account);
      if (!owner) throw new AppError('ACCOUNT_NOT_FOUND', `no account with id or key ${options.account}`);
      const text = fs.readFileSync(file, 'utf8');
      const checked = services.bots.checkFile(text, /\.ya?ml$/i.test(file) ? 'application/yaml' : 'application/json');
      const created = await services.bots.create(owner, checked);
      say(`bot imported: ${created.name} (version ${created.version}, published)`);
      say(`  BotAPIKey    ${created.apiKey}`);
      say(`  BotAPISecret ${created.apiSecret}`);
    });
  });
bot
  .command('export <apiKey>')
  .description('print the draft of a bot as a bot file')
  .option('--out <file>', 'write to a file instead of standard output')
  .action(async (apiKey: string, options: { out?: string }) => {
    await withServices(async (services) => {
      const found = await services.bots.byApiKey(apiKey);
      if (!found) throw new AppError('BOT_NOT_FOUND', `no bot with API key ${apiKey}`);
      const text = JSON.stringify(await services.bots.draftFile(found), null, 2);
      if (options.out) {
        fs.writeFileSync(options.out, `${text}\n`);
        say(`bot exported to ${options.out}`);
      } else say(text);
    });
  });

registerTestCommand(program);
registerDevCommand(program);
registerBotFileCommands(program);
registerImportCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => process.exit(reportCliError(error)));
