// Helpers shared by the conversation API tests (test/e2e/chat-*.test.ts, hostile-bots, flows):
// small bot files, one-call chat, and compact views of reply parts.
import assert from 'node:assert/strict';
import type { Response } from './client.js';
import type { TestServer } from './server.js';

export type Summary = [number, string | null];

/** `[Type, Text]` of each top-level part. */
export const summary = (parts: any[]): Summary[] => parts.map((p) => [p.Type, p.Text]);

/** A bot file with one behaviour "Main" (start) and the given interactions; the first is the start. */
export function botFile(interactions: any[], extra: Record<string, any> = {}): any {
  const [first, ...rest] = interactions;
  return {
    format: 'colloquy/bot@1',
    name: extra.name ?? 'Test bot',
    settings: { enableTypeSpeed: false, wordsPerMinute: 200, simplifiedAuth: false, ...(extra.settings ?? {}) },
    variables: extra.variables ?? {},
    triggers: extra.triggers ?? [],
    behaviours: [{ name: 'Main', start: true, ...(extra.mainApiKey ? { apiKey: extra.mainApiKey } : {}), interactions: [{ start: true, ...first }, ...rest] }, ...(extra.behaviours ?? [])],
  };
}

export const text = (t: string) => ({ type: 'text', text: t });

/** A bot with two intents ("refund" answers "Refunds take 5 days.") whose misses ask the AI provider (understanding.md). */
export const aiFallbackBot = (): any => ({
  ...botFile(
    [
      { name: 'Start', start: true, actions: [text('Hi')] },
      { name: 'Fallback', fallback: true, actions: [text('Sorry?')] },
    ],
    {
      triggers: [{ intent: 'refund', actions: [text('Refunds take 5 days.')] }],
    },
  ),
  nlp: {
    aiFallback: true,
    intents: [
      { name: 'refund', examples: ['I want my money back', 'refund please'] },
      { name: 'greet', examples: ['hello', 'good morning'] },
    ],
  },
});
export const goTo = (behaviour: string, interaction?: string, more: Record<string, unknown> = {}) => ({
  type: 'goTo',
  mode: 'absolute',
  behaviour,
  ...(interaction ? { interaction } : {}),
  ...more,
});

/** Calls POST /custom/chat with a bot token (or any bearer). */
export function chat(server: TestServer, token: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return server.client.post('/custom/chat', body, { token, headers });
}

/** POST /custom/chat that must answer 200; returns the reply body. */
export async function chatOk(server: TestServer, token: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await chat(server, token, body, headers);
  assert.equal(res.status, 200, `POST /custom/chat ${JSON.stringify(body)} → ${res.status} ${res.text}`);
  return res.body;
}

export async function valuesOf(server: TestServer, token: string, userId: string): Promise<any> {
  const res = await server.client.get(`/custom/values?userid=${encodeURIComponent(userId)}`, { token });
  assert.equal(res.status, 200, `GET /custom/values → ${res.status} ${res.text}`);
  return res.body;
}

/** The conversation's variables as an object (from GET /custom/values). */
export async function variablesOf(server: TestServer, token: string, userId: string): Promise<Record<string, string>> {
  const values = await valuesOf(server, token, userId);
  return Object.fromEntries(values.Variables.map((v: any) => [v.Name, v.Value]));
}

export async function positionOf(server: TestServer, token: string, userId: string): Promise<string> {
  const res = await server.client.get(`/custom/position?userid=${encodeURIComponent(userId)}`, { token });
  assert.equal(res.status, 200, `GET /custom/position → ${res.status} ${res.text}`);
  return `${res.body.BehaviourName}/${res.body.InteractionName}`;
}

/** The Command of the first button (Type 1) with this text, searched through nested parts. */
export function buttonCommand(parts: any[], label: string): string {
  const stack = [...parts];
  while (stack.length > 0) {
    const part = stack.shift();
    if (part.Type === 1 && part.Text === label && typeof part.Command === 'string') return part.Command;
    stack.push(...(part.Parts ?? []));
  }
  assert.fail(`no button "${label}" in ${JSON.stringify(summary(parts))}`);
}

/** A user part as stored in the history (Type 19). */
export const userPart = (textValue: string, behaviour: string, interaction: string) => ({
  Type: 19,
  Text: textValue,
  Command: null,
  TypeDelay: 0,
  BehaviourName: behaviour,
  InteractionName: interaction,
  Parts: [],
});

let counter = 0;
/** A user id unique in this process. */
export const uid = (prefix = 'u') => `${prefix}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

export const WELCOME: Summary[] = [
  [0, 'Welcome to ACME support!'],
  [13, 'What can I do for you?'],
];
export const ORDER_QUESTION: Summary = [6, 'What is your order number? (six digits)'];
export const NOT_UNDERSTOOD: Summary = [0, "Sorry, I did not get that. Type 'restart' to see the menu."];
export const ASK_HUMAN: Summary = [0, 'I am asking a colleague to join. Please hold on.'];
