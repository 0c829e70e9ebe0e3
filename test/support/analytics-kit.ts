// A bot with known paths and a scripted set of conversations over two days, for the analytics
// endpoints (test/e2e/analytics.test.ts) and the analytics page (test/browser/analytics-page.test.ts).
import assert from 'node:assert/strict';
import { botFile, buttonCommand, chatOk, goTo, text, uid } from './chat-kit.js';
import { consoleClient, signIn } from './console-kit.js';
import type { Tenant } from './fixtures.js';
import type { TestServer } from './server.js';

export const DAY_A = '2026-11-01';
export const DAY_B = '2026-11-02';
export const DAY_C = '2026-11-03';
export const at = (day: string, time: string) => Date.parse(`${day}T${time}:00Z`);

/**
 * Main: Welcome (buttons Order → Orders, Help → Help/Ask), Sorry (fallback); Orders: Number (an
 * input: onSuccess → Done, onGiveUp → Main/Welcome), Done (a goTo by template: not drawn);
 * Help: Ask (requests an operator); Rate: Ask (buttons 1 to 5 set the well-known variable `csat`,
 * docs/analytics.md). Bot-level triggers "human" → Help/Ask and "rate" → Rate.
 */
export function analyticsBot(): any {
  return botFile(
    [
      {
        name: 'Welcome',
        actions: [
          text('Hi'),
          {
            type: 'buttons',
            text: 'Pick one',
            buttons: [
              { type: 'button', text: 'Order', onClick: [goTo('Orders')] },
              { type: 'button', text: 'Help', onClick: [goTo('Help', 'Ask')] },
            ],
          },
        ],
      },
      { name: 'Sorry', fallback: true, actions: [text('Sorry?')] },
    ],
    {
      name: 'Analytics bot',
      triggers: [
        { match: 'human', actions: [goTo('Help', 'Ask')] },
        { match: 'rate', actions: [goTo('Rate')] },
      ],
      behaviours: [
        {
          name: 'Orders',
          interactions: [
            {
              name: 'Number',
              start: true,
              actions: [
                {
                  type: 'input',
                  question: 'Your order number?',
                  expect: { regex: '^\\d{3}$' },
                  variable: 'n',
                  maxWrongAnswers: 1,
                  onSuccess: [goTo('Orders', 'Done')],
                  onGiveUp: [goTo('Main', 'Welcome')],
                },
              ],
            },
            { name: 'Done', actions: [text('Thanks'), { type: 'goTo', mode: 'absolute', behaviour: '{{next}}' }] },
          ],
        },
        { name: 'Help', interactions: [{ name: 'Ask', start: true, actions: [text('Asking a colleague'), { type: 'operator', mode: 'request' }] }] },
        {
          name: 'Rate',
          interactions: [
            {
              name: 'Ask',
              start: true,
              actions: [
                {
                  type: 'buttons',
                  text: 'How did we do?',
                  buttons: [1, 2, 3, 4, 5].map((n) => ({ type: 'button', text: String(n), onClick: [{ type: 'setVariable', name: 'csat', value: String(n) }, text('Thank you')] })),
                },
              ],
            },
          ],
        },
      ],
    },
  );
}

/**
 * Day A: u1 starts and types a text that reaches the fallback; u2 starts and clicks Order (stops
 * at Orders/Number); u3 starts and asks for a human (hand-over A).
 * Day B: u4 starts and reaches the fallback twice; u5 orders and answers (stops at Orders/Done);
 * u1 asks for a human at 11:00 (hand-over B), is taken over at 11:02 and gets an operator message
 * at 11:05; handed back at 11:10, asks again at 11:20, taken over at 11:30, answered at 11:31 (waits
 * of 120 and 600 s, first responses of 300 and 660 s; u3's wait of day A was never answered).
 * CSAT: u7 rates 3 on day A (10:30); u8 rates 5 and u9 rates 4 on day B (12:00, 12:10).
 * Day C 11:50: u6 starts (active less than 30 minutes before 12:00: not a drop-off yet).
 * The clock is left at Day C 12:00. `operator` signs in when needed (sessions last 12 hours).
 */
export async function runScript(server: TestServer, tenant: Tenant, operator: string, botId: string, setNow: (ms: number) => void) {
  const users = { u1: uid('u1'), u2: uid('u2'), u3: uid('u3'), u4: uid('u4'), u5: uid('u5'), u6: uid('u6'), u7: uid('u7'), u8: uid('u8'), u9: uid('u9') };
  const say = (userId: string, body: Record<string, unknown> = {}) => chatOk(server, tenant.botToken, { UserId: userId, ...body });
  const rate = async (userId: string, rating: string) => {
    await say(userId);
    const asked = await say(userId, { Text: 'rate' });
    await say(userId, { Command: buttonCommand(asked.Parts, rating) });
  };
  setNow(at(DAY_A, '10:00'));
  await say(users.u1);
  await say(users.u1, { Text: 'blah' });
  setNow(at(DAY_A, '10:05'));
  const welcome = await say(users.u2);
  await say(users.u2, { Command: buttonCommand(welcome.Parts, 'Order') });
  setNow(at(DAY_A, '10:30'));
  await rate(users.u7, '3');
  setNow(at(DAY_A, '11:00'));
  await say(users.u3);
  await say(users.u3, { Text: 'human' });

  setNow(at(DAY_B, '09:00'));
  await say(users.u4);
  await say(users.u4, { Text: 'xyz' });
  await say(users.u4, { Text: 'qwe' });
  setNow(at(DAY_B, '10:00'));
  const again = await say(users.u5);
  await say(users.u5, { Command: buttonCommand(again.Parts, 'Order') });
  await say(users.u5, { Text: '123' });
  setNow(at(DAY_B, '11:00'));
  await say(users.u1, { Text: 'human' });
  const console = consoleClient(server.client, await signIn(server.client, operator));
  const path = console.conversationPath(botId, users.u1);
  setNow(at(DAY_B, '11:02'));
  assert.equal((await console.post(`${path}/takeover`)).status, 200);
  setNow(at(DAY_B, '11:05'));
  assert.equal((await console.post(`${path}/messages`, { Text: 'Hello, Ann here' })).status, 200);
  setNow(at(DAY_B, '11:10'));
  assert.equal((await console.post(`${path}/handover`, {})).status, 200);
  setNow(at(DAY_B, '11:20'));
  await say(users.u1, { Text: 'human' });
  setNow(at(DAY_B, '11:30'));
  assert.equal((await console.post(`${path}/takeover`)).status, 200);
  setNow(at(DAY_B, '11:31'));
  assert.equal((await console.post(`${path}/messages`, { Text: 'Back again?' })).status, 200);
  setNow(at(DAY_B, '12:00'));
  await rate(users.u8, '5');
  setNow(at(DAY_B, '12:10'));
  await rate(users.u9, '4');

  setNow(at(DAY_C, '11:50'));
  await say(users.u6);
  setNow(at(DAY_C, '12:00'));
  return users;
}
