// What the approvals tests share (agents.md "Tools", approvals): a bot whose agent has two tools
// that wait for an approval (cancel_order with the default message, refund with its own), and a
// conversation brought to the point where its agent asked for one (the AI double answers the
// user's "assistant" with the tool call).
import type { AiDouble } from './ai-double.js';
import { botFile, chatOk, text } from './chat-kit.js';
import type { TestServer } from './server.js';

export const ORDER = { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] };
export const WAIT = 'One moment, a colleague must approve this.';

/** The bot; the tools call `${shopBase}/orders/{order}/cancel` and `${shopBase}/refunds/{order}`. */
export function approvalBot(shopBase: string) {
  const agent = {
    type: 'agent',
    instructions: 'You help with orders.',
    maxSteps: 3,
    timeoutMs: 5000,
    tools: [
      { type: 'http', name: 'cancel_order', description: 'Cancel an order', parameters: ORDER, request: { method: 'POST', url: `${shopBase}/orders/{{order}}/cancel` }, approval: true },
      {
        type: 'http',
        name: 'refund',
        description: 'Refund an order',
        parameters: ORDER,
        request: { method: 'POST', url: `${shopBase}/refunds/{{order}}` },
        approval: true,
        approvalMessage: 'A colleague will check the refund.',
      },
    ],
    onError: [text('Agent error ({{agent_status}}).')],
  };
  return botFile(
    [
      { name: 'Start', actions: [text('Hi')] },
      { name: 'Agent', actions: [agent] },
    ],
    { triggers: [{ match: 'assistant', actions: [{ type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Agent' }] }] },
  );
}

/** `user` starts a conversation and its agent asks to call `tool` with `order`; returns the bot's reply to that. */
export async function askForApproval(server: TestServer, botToken: string, ai: AiDouble, user: string, tool = 'cancel_order', order = '123456') {
  await chatOk(server, botToken, { UserId: user });
  ai.next({ toolCalls: [{ id: `call_${user}`, name: tool, arguments: { order } }] });
  return chatOk(server, botToken, { UserId: user, Text: 'assistant' });
}
