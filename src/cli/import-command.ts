// `colloquy import <file> [--format F] [--name N] [--dry-run]` (importers.md): a Typebot, Rasa or
// Dialogflow ES export sent to a server's POST /bots/import (or its preview with --dry-run), and
// the report printed: what was converted, every element skipped or changed with its path.
// Exit codes as push's: 0 done, 1 refused (not an export, broken, server error), 2 usage.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { accountKeyFromEnv, ApiClient, UsageError } from './api-client.js';
import { DEFAULT_SERVER } from './push-pull.js';

interface ImportCommandOptions {
  server?: string;
  format?: string;
  name?: string;
  dryRun?: boolean;
}

interface ReportEntry {
  Path: string;
  What: string;
  Why: string;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

export async function importExport(file: string, options: ImportCommandOptions): Promise<void> {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`${file} cannot be read: ${(error as Error).message}`);
  }
  if (options.format !== undefined && !['typebot', 'rasa', 'dialogflow'].includes(options.format)) throw new UsageError('--format is typebot, rasa or dialogflow');
  const api = new ApiClient(options.server ?? process.env.COLLOQUY_SERVER ?? DEFAULT_SERVER);
  const token = await api.accountToken(accountKeyFromEnv());
  const form = new FormData();
  if (options.format) form.append('Format', options.format);
  if (options.name !== undefined) form.append('Name', options.name);
  form.append('file', new Blob([new Uint8Array(data)]), path.basename(file));
  const answer = (await api.call('POST', options.dryRun ? '/bots/import/preview' : '/bots/import', { token, form })).body;
  const report = answer.Report as { Converted: Record<string, number>; Skipped: ReportEntry[]; Changed: ReportEntry[] };
  if (options.dryRun) say(`dry run: ${file} read as a ${answer.Format} export; nothing was created`);
  else {
    say(`created "${answer.Name}" from a ${answer.Format} export (version ${answer.Version}, live)`);
    say(`  BotAPIKey    ${answer.APIKey}`);
    say(`  BotAPISecret ${answer.APISecret}`);
  }
  say(
    `converted: ${Object.entries(report.Converted)
      .map(([what, n]) => `${n} ${what.toLowerCase()}`)
      .join(', ')}`,
  );
  for (const [title, entries] of [
    ['skipped', report.Skipped],
    ['changed', report.Changed],
  ] as const) {
    say(`${title}: ${entries.length === 0 ? 'nothing' : ''}`);
    for (const entry of entries) say(`  ${entry.Path}\n    ${entry.What}: ${entry.Why}`);
  }
}

export function registerImportCommand(program: Command): void {
  program
    .command('import <file>')
    .description('make a bot of a Typebot, Rasa or Dialogflow ES export (JSON, YAML, .zip, .tar.gz) on a server (COLLOQUY_ACCOUNT_KEY)')
    .option('--server <url>', `the server (or COLLOQUY_SERVER; default ${DEFAULT_SERVER})`)
    .option('--format <format>', 'typebot, rasa or dialogflow (default: detected)')
    .option('--name <name>', "the bot's name (default: the export's)")
    .option('--dry-run', 'print the report only; create nothing')
    .action((file: string, options: ImportCommandOptions) => importExport(file, options));
}
