// The demo: on an empty database, an account and the support bot, so `npm start` is enough to
// have something to talk to. Prints what a person needs to try it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { ASSISTANT_BUTTON, ASSISTANT_TRIGGER, withAssistant } from './demo-assistant.js';
import type { Services } from './http/services.js';
import { DEMO_BOT_FILE } from './main.js';

const DEMO_FAQ_FILE = new URL('../assets/demo-faq.json', import.meta.url);

export interface DemoKeys {
  accountKey: string;
  botKey: string;
  botSecret: string;
  webKey: string;
  operatorEmail: string;
  operatorPassword: string;
  /** whether the server has an AI provider (COLLOQUY_AI_*): the assistant's model */
  aiProvider: boolean;
}

export const DEMO_OPERATOR_EMAIL = 'operator@demo.local';

export async function seedDemo(services: Services): Promise<DemoKeys | null> {
  if ((await services.accounts.count()) > 0) return null;
  const account = await services.accounts.create({ name: 'Demo', plan: 'standard', packages: ['master-bot'] });
  // The demo bot answers from an FAQ before its fallback (knowledge.md): "do you ship to Norway?"
  const demo = JSON.parse(fs.readFileSync(DEMO_BOT_FILE, 'utf8'));
  // ... and hands the conversation to an agent from its welcome's button or the word "assistant" (demo-assistant.ts)
  const file = services.bots.checkFile(withAssistant({ ...demo, knowledge: { beforeFallback: true } }), 'application/json');
  const bot = await services.bots.create(account, file);
  await services.knowledge.add(bot, JSON.parse(fs.readFileSync(DEMO_FAQ_FILE, 'utf8')));
  // A weekly broadcast (docs/broadcasts.md) to users tagged `newsletter`, from tomorrow 09:00 UTC:
  // the console and GET /bots/{APIKey}/broadcasts show it scheduled.
  const tomorrow = new Date(services.clock.now() + 86_400_000).toISOString().slice(0, 10);
  await services.broadcasts.create(bot, { Name: 'Weekly hello', Behaviour: 'Main', Audience: { Tags: { any: ['newsletter'] } }, At: `${tomorrow}T09:00:00+00:00`, Repeat: { Every: 'week' } });
  // GET /demo embeds the widget for this bot.
  await services.web.rememberDemoWebKey(bot.webKey);
  // An operator, so the console works from the first start; the password is shown once.
  const operatorPassword = crypto.randomBytes(9).toString('base64url');
  await services.operatorAdmin.addOperator(account.id, { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator', password: operatorPassword, role: 'admin' });
  return {
    accountKey: account.apiKey,
    botKey: bot.apiKey,
    botSecret: bot.apiSecret,
    webKey: bot.webKey,
    operatorEmail: DEMO_OPERATOR_EMAIL,
    operatorPassword,
    aiProvider: services.config.ai !== null,
  };
}

export function demoInstructions(base: string, keys: DemoKeys): string {
  const tokenBody = JSON.stringify({ AccountAPIKey: keys.accountKey, BotAPIKey: keys.botKey, BotAPISecret: keys.botSecret });
  return [
    'Demo account and bot created (support desk bot):',
    `  account API key : ${keys.accountKey}`,
    `  bot API key     : ${keys.botKey}`,
    `  bot API secret  : ${keys.botSecret}`,
    `  bot web key     : ${keys.webKey}`,
    '',
    'Get a bot token into TOKEN, then read the bot configuration and say hello:',
    `  TOKEN=$(curl -s -X POST ${base}/authorization/integration -H 'Content-Type: application/json' -d '${tokenBody}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')`,
    `  curl -s ${base}/custom/config -H "Authorization: Bearer $TOKEN"`,
    `  curl -s -X POST ${base}/custom/chat -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"UserId":"me"}'`,
    '',
    `Web chat demo: ${base}/demo   (embed: <script src="${base}/widget.js" data-bot="${keys.webKey}"></script>)`,
    `Operator console: ${base}/console   (sign in as ${keys.operatorEmail} / ${keys.operatorPassword}; an admin: conversations,`,
    `  analytics, the designer at ${base}/console/designer and the bot's knowledge at ${base}/console/knowledge)`,
    'Ask the FAQ it answers from (knowledge, with its source named):',
    `  curl -s -X POST ${base}/custom/chat -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"UserId":"me","Text":"do you ship to norway?"}'`,
    keys.aiProvider
      ? `Choose "${ASSISTANT_BUTTON}" (or type "${ASSISTANT_TRIGGER}") to talk to its agent (docs/agents.md): the server's AI provider answers, with the FAQ, order tracking and a person as tools.`
      : `Choose "${ASSISTANT_BUTTON}" (or type "${ASSISTANT_TRIGGER}") to meet its agent (docs/agents.md): with no AI provider it says so and goes back to the menu; set COLLOQUY_AI_BASE_URL and COLLOQUY_AI_MODEL to let it answer.`,
    'Its scheduled broadcast (docs/broadcasts.md), with the account token ACCOUNT made below:',
    `  curl -s ${base}/bots/${keys.botKey}/broadcasts -H "Authorization: Bearer $ACCOUNT"`,
    `API docs: ${base}/docs   bot file schema: ${base}/schema/bot.json`,
    '',
    'Publish the bot on Telegram (COLLOQUY_PUBLIC_URL must be an https address Telegram can reach; WhatsApp and Messenger: docs/channels.md):',
    `  ACCOUNT=$(curl -s -X POST ${base}/authorization/integration -H 'Content-Type: application/json' -d '{"AccountAPIKey":"${keys.accountKey}"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')`,
    `  curl -s -X PUT ${base}/bots/${keys.botKey}/channels/telegram -H "Authorization: Bearer $ACCOUNT" -H 'Content-Type: application/json' -d '{"Token":"<the token @BotFather gave you>"}'`,
    '',
    'Run its conversation tests (no server needed), or pull it as a file, edit it, test it and push it back (docs/testing.md):',
    '  npx colloquy test examples/demo',
    `  COLLOQUY_SERVER=${base} COLLOQUY_ACCOUNT_KEY=${keys.accountKey} npx colloquy pull ${keys.botKey} --out support.bot.yaml`,
  ].join('\n');
}
