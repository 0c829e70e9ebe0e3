// `colloquy test --server URL`: the same test files against a live bot through the custom channel
// (api.md section 3). Each test is a new user, so tests never share a conversation; stubs cannot
// apply (the server makes its real calls), the clock and random choices are the server's.
import { randomUUID } from 'node:crypto';
import type { BotUnderTest } from '../bot-testing/bot-under-test.js';
import type { Coverage } from '../bot-testing/coverage.js';
import type { ChatSession } from '../bot-testing/session.js';
import type { TestCase } from '../bot-testing/test-file.js';
import type { ReplyPart } from '../engine/types.js';
import { type ApiClient, ApiError } from './api-client.js';

interface Reply {
  Parts: ReplyPart[];
  ControlType: number;
}

export class ServerSession implements ChatSession {
  private readonly userId = `colloquy-test-${randomUUID()}`;
  private control = 0;
  private first = true;

  constructor(
    private readonly api: ApiClient,
    private readonly token: string,
    private readonly bot: BotUnderTest,
    private readonly test: TestCase,
    private readonly coverage: Coverage,
  ) {}

  start() {
    return this.chat({ Command: 'RESET' });
  }
  say(text: string) {
    return this.chat({ Text: text });
  }
  press(command: string) {
    this.coverage.pressed(this.bot, command);
    return this.chat({ Command: command });
  }
  async position() {
    const at = (await this.api.call('GET', `/custom/position?userid=${encodeURIComponent(this.userId)}`, { token: this.token })).body;
    return at.BehaviourName && at.InteractionName ? `${at.BehaviourName}/${at.InteractionName}` : null;
  }
  async variables() {
    const values = (await this.api.call('GET', `/custom/values?userid=${encodeURIComponent(this.userId)}`, { token: this.token })).body;
    return Object.fromEntries((values.Variables as Array<{ Name: string; Value: string }>).map((v) => [v.Name, v.Value]));
  }
  async handedOver() {
    return this.control !== 0;
  }

  private async chat(body: Record<string, unknown>): Promise<ReplyPart[]> {
    const request = { UserId: this.userId, ...body, ...(this.first && Object.keys(this.test.variables).length > 0 ? { Variables: this.test.variables } : {}) };
    this.first = false;
    const reply = (await this.api.call('POST', '/custom/chat', { token: this.token, json: request })).body as Reply;
    this.control = reply.ControlType;
    for (const part of reply.Parts) this.coverage.reachedByName(this.bot, part.BehaviourName, part.InteractionName);
    return reply.Parts;
  }
}

/** Which stubs a file's tests declare: against a server they are skipped, and the report says so. */
export function skippedStubNotes(tests: TestCase[]): string[] {
  const kinds = new Set<string>();
  for (const t of tests) for (const [kind, list] of Object.entries(t.stubs)) if (list.length > 0) kinds.add(kind);
  const notes = [...kinds].map((k) => `${k} stubs skipped: the live bot makes its real calls`);
  if (tests.some((t) => t.steps.length > 0)) notes.push("the server's clock and random choices apply");
  return notes;
}

/** One bot token per bot: --bot names it, else the bot of the account with the bot file's name. */
export class ServerBots {
  private readonly tokens = new Map<string, Promise<string>>();
  constructor(
    readonly api: ApiClient,
    private readonly accountKey: string,
    private readonly botKey?: string,
  ) {}

  tokenFor(bot: BotUnderTest): Promise<string> {
    let token = this.tokens.get(bot.path);
    if (!token) this.tokens.set(bot.path, (token = this.find(bot)));
    return token;
  }

  private async find(bot: BotUnderTest): Promise<string> {
    if (this.botKey) return this.api.botToken(this.accountKey, this.botKey);
    const account = await this.api.accountToken(this.accountKey);
    const named = ((await this.api.call('GET', '/bots', { token: account })).body.Result as Array<{ Name: string; APIKey: string }>).filter((b) => b.Name === bot.name);
    if (named.length !== 1)
      throw new ApiError(404, 'BOT_NOT_FOUND', `${named.length === 0 ? 'no' : named.length} bots named ${JSON.stringify(bot.name)} in the account: name one with --bot <APIKey>`, {});
    return this.api.botToken(this.accountKey, named[0]!.APIKey);
  }
}
