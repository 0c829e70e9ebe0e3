// What an agent turn costs the server (issue 39): a bot whose agent has two http tools; each user
// text makes the model (an OpenAI-compatible double on loopback) call both tools in one answer
// (agents.md "two tool calls"), each tool reach a shop double on loopback, and the model answer
// with text: two model calls, two HTTP calls, one stored turn. Next to it, a plain turn of the bench bot (the fallback: a variable and two texts)
// on the same server. In-process, SQLite, the built-in model off, one turn at a time: ms per turn
// is latency with the doubles answering at once; CPU is this whole process (server, doubles and
// client), per turn. Runs on its own (`npx tsx bench/agent-turn.ts`) or from run.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { AiDouble } from '../test/support/ai-double.js';
import { startBenchServer } from './in-process-server.js';
import { call, createTenant } from './setup.js';

const TURNS = 200;
const WARMUP = 20;

export interface AgentTurnFigures {
  turns: number;
  agentMs: { mean: number; p50: number; p99: number };
  agentCpuUs: number;
  plainMs: number;
  plainCpuUs: number;
}

const agentBot = (shop: string) => ({
  format: 'colloquy/bot@1',
  name: 'Bench agent',
  settings: { enableTypeSpeed: false },
  behaviours: [
    {
      name: 'Main',
      start: true,
      interactions: [
        {
          name: 'Agent',
          start: true,
          enableUserChat: true,
          actions: [
            {
              type: 'agent',
              instructions: 'You are the shop assistant.',
              tools: [
                {
                  type: 'http',
                  name: 'order_status',
                  description: 'Status of an order',
                  parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] },
                  request: { method: 'GET', url: `${shop}/orders/{{order}}` },
                },
                {
                  type: 'http',
                  name: 'delivery_date',
                  description: 'When an order arrives',
                  parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['order'] },
                  request: { method: 'GET', url: `${shop}/deliveries/{{order}}` },
                },
              ],
              onError: [{ type: 'text', text: 'agent failed: {{agent_status}}' }],
            },
          ],
        },
      ],
    },
  ],
});

async function startShop() {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ order: req.url?.split('/').pop(), state: 'shipped' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

/** `count` turns one after another; each `say` returns once its reply is checked. */
async function timed(count: number, say: (i: number) => Promise<void>): Promise<{ ms: number[]; cpuUs: number }> {
  const ms: number[] = [];
  const cpuBefore = cpuUs();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await say(i);
    ms.push(performance.now() - started);
  }
  return { ms, cpuUs: (cpuUs() - cpuBefore) / count };
}

export async function measureAgentTurn(): Promise<AgentTurnFigures> {
  const [ai, shop] = await Promise.all([AiDouble.start(), startShop()]);
  const running = await startBenchServer('agent', { env: { COLLOQUY_BUILTIN_MODEL: 'off' }, quiet: true });
  try {
    const base = running.url;
    const tenant = await createTenant(base);
    const accountToken = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey })).token;
    const bot = await call(base, 'POST', '/bots', agentBot(shop.url), accountToken);
    await call(base, 'PUT', `/bots/${bot.APIKey}/ai`, { BaseUrl: ai.baseUrl, Model: 'bench-chat', ApiKey: 'sk-bench' }, accountToken);
    const agentToken = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey, BotAPIKey: bot.APIKey, BotAPISecret: bot.APISecret })).token;
    await call(base, 'POST', '/custom/chat', { UserId: 'agent' }, agentToken);
    await call(base, 'POST', '/custom/chat', { UserId: 'plain' }, tenant.botToken);

    const agentTurn = async (i: number) => {
      const order = String(100000 + i);
      ai.next(
        {
          toolCalls: [
            { name: 'order_status', arguments: { order } },
            { name: 'delivery_date', arguments: { order } },
          ],
          tokens: 30,
        },
        { content: `Order ${order} has shipped.`, tokens: 20 },
      );
      const reply = await call(base, 'POST', '/custom/chat', { UserId: 'agent', Text: `where is order ${order}?` }, agentToken);
      if (reply.Parts?.[0]?.Text !== `Order ${order} has shipped.`) throw new Error(`the agent did not answer as expected: ${JSON.stringify(reply)}`);
      ai.requests.length = 0; // the double keeps every request: not what is measured
    };
    const plainTurn = async (i: number) => {
      const reply = await call(base, 'POST', '/custom/chat', { UserId: 'plain', Text: `hello ${i}` }, tenant.botToken);
      if (reply.Parts?.length !== 2) throw new Error(`the bench bot did not answer as expected: ${JSON.stringify(reply)}`);
    };
    await timed(WARMUP, agentTurn);
    await timed(WARMUP, plainTurn);
    const agent = await timed(TURNS, (i) => agentTurn(WARMUP + i));
    const plain = await timed(TURNS, plainTurn);
    const sorted = [...agent.ms].sort((a, b) => a - b);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return { turns: TURNS, agentMs: { mean: mean(agent.ms), p50: at(sorted, 0.5), p99: at(sorted, 0.99) }, agentCpuUs: agent.cpuUs, plainMs: mean(plain.ms), plainCpuUs: plain.cpuUs };
  } finally {
    await running.close();
    await Promise.all([ai.close(), shop.close()]);
  }
}

export function describeAgentTurn(f: AgentTurnFigures): string {
  const cpu = (us: number) => `${(us / 1000).toFixed(2)} ms CPU`;
  return [
    `agent turn (2 model calls to a loopback double, 2 http tool calls (one model answer) to a loopback shop), ${f.turns} turns one at a time: mean ${f.agentMs.mean.toFixed(2)} ms, p50 ${f.agentMs.p50.toFixed(2)} ms, p99 ${f.agentMs.p99.toFixed(2)} ms; ${cpu(f.agentCpuUs)} per turn (server, doubles and client in one process)`,
    `plain turn of the bench bot on the same server: mean ${f.plainMs.toFixed(2)} ms; ${cpu(f.plainCpuUs)} per turn`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureAgentTurn().then((f) =>
    process.stdout.write(
      `${describeAgentTurn(f)}\nload average (1, 5, 15 min): ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}\n`,
    ),
  );
}
