// `colloquy push <bot file>` / `colloquy pull <APIKey>` (testing.md): bot files to and from a server
// over the HTTP API. The file's `version` (written by pull and by every push) is sent as If-Match,
// so a draft someone changed on the server since is never overwritten without --force.
// Exit codes: 0 done, 1 refused (invalid file, server error), 2 usage or unreadable file, 3 stale.
import fs from 'node:fs';
import type { Command } from 'commander';
import { isDocument, parseDocument, stringify as toYaml } from 'yaml';
import { checkBotText, isProblem } from '../bot-testing/bot-under-test.js';
import { accountKeyFromEnv, ApiClient, ApiError, UsageError } from './api-client.js';
import { CommandFailed } from './errors.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
export const DEFAULT_SERVER = 'http://127.0.0.1:3000';
const serverOf = (given?: string) => given ?? process.env.COLLOQUY_SERVER ?? DEFAULT_SERVER;
const isYaml = (file: string) => /\.ya?ml$/i.test(file);

interface PushOptions {
  server?: string;
  bot?: string;
  publish?: boolean;
  force?: boolean;
}
interface PullOptions {
  server?: string;
  version?: string;
  out?: string;
  format?: string;
}

/** The `version` a bot file says it was pulled (or last pushed) at; undefined when it has none. */
function versionIn(text: string): number | undefined {
  const doc = parseDocument(text);
  const value = isDocument(doc) ? (doc.toJS() as { version?: unknown } | null)?.version : undefined;
  return Number.isInteger(value) && (value as number) > 0 ? (value as number) : undefined;
}

/** The file with `version` set, changing nothing else that can be kept (comments, layout). */
export function withVersion(file: string, text: string, version: number): string {
  if (isYaml(file)) {
    const doc = parseDocument(text);
    doc.set('version', version);
    return String(doc);
  }
  if (/"version"\s*:\s*\d+/.test(text)) return text.replace(/"version"(\s*):(\s*)\d+/, `"version"$1:$2${version}`);
  return text.replace(/\{(\s*)/, (_m, space: string) => `{${space || ' '}"version": ${version},${space || ' '}`);
}

export async function push(file: string, options: PushOptions): Promise<void> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file} cannot be read: ${(error as Error).message}`);
  }
  const checked = checkBotText(file, text);
  if (isProblem(checked)) {
    throw new CommandFailed(`${file} is not a valid bot file; nothing was sent:\n${checked.problems.map((p) => `  ${p.at}: ${p.message}`).join('\n')}`, 1);
  }
  const api = new ApiClient(serverOf(options.server));
  const token = await api.accountToken(accountKeyFromEnv());
  const contentType = isYaml(file) ? 'application/yaml' : 'application/json';
  const botKey = options.bot ?? process.env.COLLOQUY_BOT_KEY;
  let version: number;
  if (!botKey) {
    say(`creating a bot from ${file} on ${api.base}`);
    const created = (await api.call('POST', '/bots', { token, text, contentType })).body;
    say(`created "${checked.name}" (version ${created.Version}, live)`);
    say(`  BotAPIKey    ${created.APIKey}`);
    say(`  BotAPISecret ${created.APISecret}`);
    say(`push again with --bot ${created.APIKey}`);
    version = created.Version;
  } else {
    const base = versionIn(text);
    if (base === undefined && !options.force) {
      throw new CommandFailed(
        `${file} does not say which version of the bot it was made from (no \`version\`): pull it first (colloquy pull ${botKey} --out ${file}) and apply your change, or push with --force to overwrite the server's draft`,
        3,
      );
    }
    const ifMatch: Record<string, string> = options.force ? {} : { 'if-match': `"${base}"` };
    say(`pushing ${file} to bot ${botKey} on ${api.base}${options.force ? ' (--force: whatever the server has)' : ` (If-Match: version ${base})`}`);
    try {
      version = (await api.call('PUT', `/bots/${encodeURIComponent(botKey)}`, { token, text, contentType, headers: ifMatch })).body.Version;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'VERSION_MISMATCH') {
        const current = typeof error.body.Version === 'number' ? `version ${error.body.Version}` : 'a newer version';
        throw new CommandFailed(
          `refused: the bot on the server is at ${current}, newer than version ${base} that ${file} was made from; someone changed it since. Nothing was overwritten.\n` +
            `  pull it (colloquy pull ${botKey} --out other-file), merge the changes into ${file}, set its version, and push again; or push with --force to overwrite them`,
          3,
        );
      }
      throw error;
    }
    say(`draft saved: version ${version}`);
    if (options.publish) {
      version = (await api.call('POST', `/bots/${encodeURIComponent(botKey)}/publish`, { token })).body.Version;
      say(`published: version ${version} is live`);
    }
  }
  fs.writeFileSync(file, withVersion(file, text, version));
  say(`${file} now says version: ${version}`);
}

export async function pull(botKey: string, options: PullOptions): Promise<void> {
  if (options.version !== undefined && !/^[1-9]\d{0,8}$/.test(options.version)) throw new UsageError('--version must be a published version number');
  const format = options.format ?? (options.out && !isYaml(options.out) && /\.json$/i.test(options.out) ? 'json' : 'yaml');
  if (format !== 'yaml' && format !== 'json') throw new UsageError('--format must be yaml or json');
  const api = new ApiClient(serverOf(options.server));
  const token = await api.accountToken(accountKeyFromEnv());
  const where = options.version ? `/versions/${options.version}` : '';
  const file = (await api.call('GET', `/bots/${encodeURIComponent(botKey)}${where}`, { token })).body as Record<string, unknown>;
  const text = format === 'json' ? `${JSON.stringify(file, null, 2)}\n` : toYaml(file, { lineWidth: 0 });
  if (!options.out) {
    process.stdout.write(text);
    return;
  }
  fs.writeFileSync(options.out, text);
  say(`${options.version ? `version ${options.version}` : 'the draft'} of "${String(file.name)}" written to ${options.out} (version ${String(file.version)})`);
}

export function registerBotFileCommands(program: Command): void {
  program
    .command('push <botFile>')
    .description("deploy a bot file to a server (COLLOQUY_ACCOUNT_KEY; If-Match with the file's version)")
    .option('--server <url>', `the server (or COLLOQUY_SERVER; default ${DEFAULT_SERVER})`)
    .option('--bot <apiKey>', 'update this bot (or COLLOQUY_BOT_KEY); without it, a new bot is created')
    .option('--publish', 'make the pushed draft live')
    .option('--force', "overwrite the server's draft even if it changed since the file's version")
    .action((file: string, options: PushOptions) => push(file, options));
  program
    .command('pull <apiKey>')
    .description("fetch a bot's draft (or --version N) as a bot file (COLLOQUY_ACCOUNT_KEY)")
    .option('--server <url>', `the server (or COLLOQUY_SERVER; default ${DEFAULT_SERVER})`)
    .option('--version <n>', 'a published version instead of the draft')
    .option('--out <file>', 'write to this file instead of standard output')
    .option('--format <format>', 'yaml or json (default: from --out, else yaml)')
    .action((key: string, options: PullOptions) => pull(key, options));
}
