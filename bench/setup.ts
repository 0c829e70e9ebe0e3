// Everything the benchmark needs on the server, made through the public API as an integrator
// would: an account, the bench bot, a bot token, and 1,000 started conversations.

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/** A turn on this bot: the text runs the fallback, which writes one variable and says two texts. */
export const benchBot = {
  format: 'colloquy/bot@1',
  name: 'Bench',
  description: 'The bot of npm run bench',
  settings: {
    enableTypeSpeed: false,
    wordsPerMinute: 600,
    simplifiedAuth: false,
    channels: { custom: { webhookUrl: null, includeAllChannels: false } },
  },
  variables: { count: '0' },
  triggers: [],
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        { name: 'Welcome', start: true, enableUserChat: true, actions: [{ type: 'text', text: 'Hello! Say anything.' }] },
        {
          name: 'Echo',
          fallback: true,
          enableUserChat: true,
          actions: [
            { type: 'setVariable', name: 'count', mode: 'add', value: '1' },
            { type: 'text', text: 'You said: {{last_user_text}}' },
            { type: 'text', text: 'That makes {{count}} messages.' },
          ],
        },
      ],
    },
  ],
};

export interface Tenant {
  accountKey: string;
  botKey: string;
  botSecret: string;
  botToken: string;
}

export async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

export async function createTenant(base: string): Promise<Tenant> {
  const account = await call(base, 'POST', '/admin/accounts', { Name: 'Bench', Plan: 'standard', Packages: [] }, ADMIN_TOKEN);
  const accountToken = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: account.AccountAPIKey })).token;
  const bot = await call(base, 'POST', '/bots', benchBot, accountToken);
  const botToken = (
    await call(base, 'POST', '/authorization/integration', {
      AccountAPIKey: account.AccountAPIKey,
      BotAPIKey: bot.APIKey,
      BotAPISecret: bot.APISecret,
    })
  ).token;
  return { accountKey: account.AccountAPIKey, botKey: bot.APIKey, botSecret: bot.APISecret, botToken };
}

export const userId = (i: number) => `bench-user-${i}`;

/** Starts conversations 0..count-1 (the start interaction runs), a few requests at a time. */
export async function startConversations(base: string, token: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const reply = await call(base, 'POST', '/custom/chat', { UserId: userId(i) }, token);
      if (reply.Parts.length !== 1) throw new Error(`starting ${userId(i)}: expected the welcome part, got ${JSON.stringify(reply)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** One turn, checked: two parts back, and the variable written by the turn is the one we expect. */
export async function checkTurn(base: string, token: string, user: string): Promise<void> {
  const first = await call(base, 'POST', '/custom/chat', { UserId: user, Text: 'check one' }, token);
  const second = await call(base, 'POST', '/custom/chat', { UserId: user, Text: 'check two' }, token);
  const count = (reply: any) => Number(/That makes (\d+) messages/.exec(reply.Parts?.[1]?.Text ?? '')?.[1]);
  if (first.Parts.length !== 2 || second.Parts.length !== 2 || count(second) !== count(first) + 1) {
    throw new Error(`the bench bot does not answer as expected: ${JSON.stringify(first)} then ${JSON.stringify(second)}`);
  }
}
