// `colloquy dev <bot file>` (testing.md): the bot on a local server with a temporary SQLite
// database (or --data DIR), its links printed, and the file watched: every valid save is published
// as a new version and the tests next to it run again; an invalid save prints its problems and
// keeps the last good version live.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { BotRecord } from '../bots/model.js';
import type { Services } from '../http/services.js';
import { loadConfig } from '../config.js';
import { AppError } from '../shared/errors.js';
import { UsageError } from './api-client.js';
import { watchBotFile } from './dev-watch.js';

interface DevOptions {
  port?: string;
  data?: string;
  host?: string;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const time = () => new Date().toISOString().slice(11, 19);
const contentTypeOf = (file: string) => (/\.ya?ml$/i.test(file) ? 'application/yaml' : 'application/json');

/** The problems of an INVALID_BOT refusal, one per line; other errors as they are. */
function problemsOf(error: unknown): string[] {
  if (error instanceof AppError && error.code === 'INVALID_BOT') {
    return ((error.extra.Problems as Array<{ Path: string; Message: string }>) ?? []).map((p) => `${p.Path}: ${p.Message}`);
  }
  throw error;
}

export async function dev(file: string, options: DevOptions): Promise<void> {
  const botFile = path.resolve(file);
  if (!fs.existsSync(botFile)) throw new UsageError(`${file}: no such file`);
  const dataDir = options.data ? path.resolve(options.data) : fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-dev-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: '',
    COLLOQUY_DATA_DIR: dataDir,
    COLLOQUY_DEMO: '0',
    PORT: options.port ?? '0',
    HOST: options.host ?? '127.0.0.1',
    // the bot's callApi steps may call services on this machine while it is being built
    COLLOQUY_ALLOW_PRIVATE_NETWORK: process.env.COLLOQUY_ALLOW_PRIVATE_NETWORK ?? '1',
  });
  const { start } = await import('../main.js');
  say(`colloquy dev: ${options.data ? `data in ${dataDir}` : `a temporary database in ${dataDir}`}`);
  const running = await start(config, { logger: { level: 'warn' } });
  say(`colloquy dev: listening on ${running.url}`);
  const { services } = running;
  const account = await services.accounts.create({ name: 'Development', plan: 'standard' });
  const password = crypto.randomBytes(9).toString('base64url');
  const email = 'dev@colloquy.local';
  await services.operatorAdmin.addOperator(account.id, { email, name: 'Developer', password, role: 'admin' });

  let bot: BotRecord | null = null;
  const publish = async (text: string): Promise<string> => {
    const contentType = contentTypeOf(botFile);
    if (bot === null) {
      bot = await services.bots.create(account, services.bots.checkFile(text, contentType));
      await services.web.rememberDemoWebKey(bot.webKey);
      await printLinks(services, running.url, account.apiKey, bot, email, password);
      return `version ${bot.version} is live`;
    }
    const current = (await services.bots.byApiKey(bot.apiKey))!;
    const draft = await services.bots.replaceDraft(current, text, contentType, current.version);
    bot = await services.bots.publish(draft);
    return `version ${bot.version} is live`;
  };

  const watcher = watchBotFile(botFile, {
    async onSave(text) {
      try {
        say(`[${time()}] ${path.basename(botFile)} saved: ${await publish(text)}`);
        return true;
      } catch (error) {
        const problems = problemsOf(error);
        const kept = bot ? `version ${(await services.bots.byApiKey(bot.apiKey))!.version} stays live` : 'nothing is live yet';
        say(`[${time()}] ${path.basename(botFile)} has ${problems.length} problem(s); ${kept}:`);
        for (const p of problems) say(`  ${p}`);
        return false;
      }
    },
    say,
  });
  say(`colloquy dev: watching ${path.relative(process.cwd(), botFile) || botFile} (Ctrl+C to stop)`);

  const stop = async (signal: string) => {
    say(`colloquy dev: ${signal}, stopping`);
    watcher.close();
    await running.close();
    if (!options.data) fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

async function printLinks(services: Services, base: string, accountKey: string, bot: BotRecord, email: string, password: string): Promise<void> {
  const { token } = await services.grants.grant(accountKey, bot.apiKey, bot.apiSecret);
  say(`colloquy dev: serving "${bot.name}" on ${base}`);
  say(`  console      ${base}/console   (sign in as ${email} / ${password})`);
  say(`  designer     ${base}/console/designer`);
  if (bot.settings.channels?.web?.enabled) say(`  widget demo  ${base}/demo?bot=${bot.webKey}`);
  else say('  widget demo  (set settings.channels.web.enabled: true in the bot file to try it in the widget)');
  say(`  bot token    ${token}`);
  say(`  try it       curl -s -X POST ${base}/custom/chat -H "Authorization: Bearer ${token}" -H 'Content-Type: application/json' -d '{"UserId":"me"}'`);
}

export function registerDevCommand(program: Command): void {
  program
    .command('dev <botFile>')
    .description('serve a bot file locally, republish it on every valid save and re-run its tests')
    .option('--port <port>', 'port to listen on (default: any free one)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--data <dir>', 'keep the database in this folder instead of a temporary one')
    .action((file: string, options: DevOptions) => dev(file, options));
}
