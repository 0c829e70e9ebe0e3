// The tools an agent offers its model and what a call of each does (agents.md "Tools"). Tools are
// ordinary parts of Colloquy: an `http` call as callApi makes it, a `flow` that leaves the agent
// as goTo does, a `variable`, the bot's `knowledge`, a `handover` as the operator action does,
// and the tools of the bot's MCP servers. All I/O is yielded; the caller answers outside any
// transaction. A tool's result is a text the model reads (JSON), cut to 16 KB.
import { findBehaviour, findInteraction } from '../../compiled.js';
import type { Flow, RunContext } from '../../run-context.js';
import type { AgentToolSpec, EngineRequest, McpCallAnswer, McpToolsAnswer, RequestAnswer } from '../../types.js';
import { numberField, stringList } from '../fields.js';
import { cutToBytes, utf8Bytes } from '../../../shared/utf8.js';
import { minScoreOf } from '../../../shared/knowledge-defaults.js';
import { PartType } from '../../parts.js';
import { check } from './arguments.js';
import { DEFAULT_HTTP_TOOL_TIMEOUT_MS, httpToolRequest, httpToolResult, MAX_TOOL_RESULT_BYTES } from './http-tool.js';
import type { ToolConfig } from './schema.js';

type Gen<T> = Generator<EngineRequest, T, RequestAnswer>;

/** A tool as offered for one turn: what the model sees and the bot file's tool behind it. */
export interface OfferedTool {
  spec: AgentToolSpec;
  config: ToolConfig;
  /** an MCP tool's server and own name */
  mcp?: { server: string; tool: string };
}

/** Passages the knowledge tool gave in this turn, numbered from 1 across calls: `[n]` cites them. */
export interface Citable {
  source: string;
  url: string | null;
}

export type ToolOutcome = { kind: 'result'; ok: boolean; text: string } | { kind: 'leave'; flow: Flow };

const ANY_OBJECT = { type: 'object', properties: {} };
const MAX_HTTP_TOOL_TIMEOUT_MS = 30_000;
const DEFAULT_KNOWLEDGE_PASSAGES = 5;

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const objectOr = (value: unknown, fallback: Record<string, unknown>): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : fallback;

/** The tools of the bot file's list, MCP servers' tools asked of the caller once per turn. */
export function* offerTools(tools: readonly ToolConfig[]): Gen<Map<string, OfferedTool>> {
  const offered = new Map<string, OfferedTool>();
  const add = (name: string, description: string, parameters: Record<string, unknown>, config: ToolConfig, mcp?: OfferedTool['mcp']) => {
    if (!offered.has(name)) offered.set(name, { spec: { name, description, parameters }, config, ...(mcp ? { mcp } : {}) });
  };
  for (const tool of tools) {
    switch (tool.type) {
      case 'http':
      case 'flow':
        add(text(tool.name), text(tool.description), objectOr(tool.parameters, ANY_OBJECT), tool);
        break;
      case 'variable':
        add(text(tool.name), text(tool.description), { type: 'object', properties: { value: objectOr(tool.schema, {}) }, required: ['value'] }, tool);
        break;
      case 'knowledge':
        add(
          text(tool.name, 'knowledge') || 'knowledge',
          text(tool.description, "Searches the bot's knowledge base; cite the passages you use as [n]."),
          {
            type: 'object',
            properties: { query: { type: 'string', description: 'what to look for' } },
            required: ['query'],
          },
          tool,
        );
        break;
      case 'handover':
        add(
          text(tool.name, 'handover') || 'handover',
          text(tool.description),
          {
            type: 'object',
            properties: { reason: { type: 'string', description: 'why a person is needed, for the operators' } },
            required: ['reason'],
          },
          tool,
        );
        break;
    }
  }
  const mcpTools = tools.filter((t) => t.type === 'mcp' && typeof t.server === 'string');
  if (mcpTools.length === 0) return offered;
  const answer = (yield { kind: 'mcpTools', servers: [...new Set(mcpTools.map((t) => t.server as string))] }) as McpToolsAnswer | undefined;
  for (const found of Array.isArray(answer?.tools) ? answer.tools : []) {
    const config = mcpTools.find((t) => t.server === found.server);
    if (config === undefined || typeof found.name !== 'string') continue;
    const allow = stringList(config.allow);
    if (config.allow !== undefined && !allow.includes(found.name)) continue;
    const name = `${found.server}__${found.name}`;
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) continue; // a name the model could not call back
    add(name, cutToBytes(text(found.description), 1024), objectOr(found.parameters, ANY_OBJECT), config, { server: found.server, tool: found.name });
  }
  return offered;
}

/** Runs one checked call. `timeLeft` bounds the tools that wait; `citable` collects the passages. */
export function* runTool(tool: OfferedTool, args: Record<string, unknown>, rc: RunContext, timeLeft: number, citable: Citable[]): Gen<ToolOutcome> {
  const { config } = tool;
  switch (config.type) {
    case 'http': {
      const timeoutMs = Math.max(1, Math.min(numberField(config.timeoutMs) ?? DEFAULT_HTTP_TOOL_TIMEOUT_MS, MAX_HTTP_TOOL_TIMEOUT_MS, timeLeft));
      const request = httpToolRequest(objectOr(config.request, {}), args, rc.state.variables, timeoutMs);
      if ('error' in request) return { kind: 'result', ok: false, text: JSON.stringify(request) };
      rc.countApiCall();
      return { kind: 'result', ...httpToolResult(yield* rc.askOutside(request), rc.render(config.responsePath)) };
    }
    case 'mcp': {
      rc.countApiCall();
      const answer = (yield* rc.askOutside({ kind: 'mcpCall', server: tool.mcp!.server, tool: tool.mcp!.tool, arguments: args, timeoutMs: Math.max(1, timeLeft) })) as McpCallAnswer | undefined;
      const ok = answer?.ok === true;
      const said = cutToBytes(text(answer?.text), MAX_TOOL_RESULT_BYTES - 64);
      return { kind: 'result', ok, text: ok ? said : JSON.stringify({ error: said || 'the call failed' }) };
    }
    case 'variable': {
      const checked = check(args.value, objectOr(config.schema, {}));
      if (!checked.ok) return { kind: 'result', ok: false, text: JSON.stringify({ error: checked.error }) };
      const value = typeof args.value === 'string' ? args.value : JSON.stringify(args.value);
      rc.setVariable(text(config.variable), value);
      return { kind: 'result', ok: true, text: '{"ok":true}' };
    }
    case 'knowledge':
      return yield* searchKnowledge(config, text(args.query), rc, timeLeft, citable);
    case 'handover': {
      rc.state.waiting = null;
      const reason = cutToBytes(text(args.reason), 2048).trim();
      if (reason !== '') rc.effect({ kind: 'note', text: reason });
      rc.effect({ kind: 'control', mode: 'request' });
      const message = rc.render(config.message);
      if (message !== '') rc.say(rc.part(PartType.Text, { Text: message }));
      return { kind: 'leave', flow: { kind: 'handover' } };
    }
    case 'flow': {
      const behaviour = findBehaviour(rc.bot, rc.render(config.behaviour));
      const interactionName = rc.render(config.interaction);
      const target = behaviour === null ? null : interactionName === '' ? behaviour.start : findInteraction(behaviour, interactionName);
      if (target === null) return { kind: 'result', ok: false, text: JSON.stringify({ error: 'the flow does not exist' }) };
      for (const [name, value] of Object.entries(args)) rc.setVariable(name, typeof value === 'string' ? value : JSON.stringify(value));
      rc.state.waiting = null;
      return { kind: 'leave', flow: { kind: 'goto', target, cancelFurtherExecution: false } };
    }
    default:
      return { kind: 'result', ok: false, text: JSON.stringify({ error: 'unknown tool' }) };
  }
}

function* searchKnowledge(config: ToolConfig, query: string, rc: RunContext, timeLeft: number, citable: Citable[]): Gen<ToolOutcome> {
  const maxPassages = Math.min(Math.max(numberField(config.maxPassages) ?? DEFAULT_KNOWLEDGE_PASSAGES, 1), 10);
  const reply = yield* rc.askOutside({
    kind: 'knowledge',
    question: query,
    instructions: '',
    maxPassages,
    timeoutMs: Math.max(1, timeLeft),
    minScore: minScoreOf(rc.bot.knowledge?.minScore),
    passagesOnly: true,
  });
  const passages = typeof reply === 'object' && reply !== null && 'passages' in reply && Array.isArray(reply.passages) ? reply.passages : null;
  if (passages === null) return { kind: 'result', ok: false, text: JSON.stringify({ error: 'the search failed' }) };
  rc.effect({ kind: 'knowledgeAsked', answered: passages.length > 0 });
  const numbered = passages.map((p) => {
    citable.push({ source: text(p.source), url: typeof p.url === 'string' ? p.url : null });
    return { n: citable.length, SourceName: text(p.source), text: text(p.text) };
  });
  let result = JSON.stringify({ passages: numbered });
  // whole passages while they fit: a cut one would be cited for what it no longer says
  while (numbered.length > 0 && utf8Bytes(result) > MAX_TOOL_RESULT_BYTES) {
    numbered.pop();
    result = JSON.stringify({ passages: numbered });
  }
  return { kind: 'result', ok: true, text: result };
}
