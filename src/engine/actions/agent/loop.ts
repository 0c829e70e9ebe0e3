// One agent turn (agents.md "One agent turn"): the model is asked with the tools; each tool call
// it makes is checked and run, its result handed back; then the model is asked again, until it
// answers with text, a tool leaves the agent, or a bound is reached (maxSteps model calls,
// timeoutMs for the whole turn, the conversation's tokens of the day). Every model and tool call
// is yielded, so the caller makes it outside any transaction and a retried turn replays its
// answers instead of calling again (drive-turn.ts). Failures never crash the turn: agent_status
// says which, onError runs, and the agent keeps the conversation.
import type { Action } from '../../bot-file.js';
import { DAY_MS } from '../../../shared/durations.js';
import { cutToBytes } from '../../../shared/utf8.js';
import type { Flow, RunContext } from '../../run-context.js';
import type { AgentMessage, AgentModelAnswer, ApprovalDecision, AgentToolCall, AgentTraceStep, EngineRequest, RequestAnswer } from '../../types.js';
import { MAX_AI_ANSWER_BYTES } from '../ai/index.js';
import { numberField, objectList } from '../fields.js';
import { sayWithSources } from '../knowledge/index.js';
import { parseArguments } from './arguments.js';
import { askApproval, refusal } from './approval.js';
import { DEFAULT_AGENT_HISTORY, DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_MAX_STEPS, MAX_AGENT_HISTORY, MAX_AGENT_TIMEOUT_MS, MAX_MAX_STEPS, type ToolConfig } from './schema.js';
import { offerTools, runTool, type Citable, type OfferedTool } from './tools.js';

type Gen<T> = Generator<EngineRequest, T, RequestAnswer>;
export type AgentStatus = 'OK' | 'ERROR' | 'TIMEOUT' | 'MAX_STEPS' | 'BUDGET';

/** Tool calls made from one model answer; the rest are answered with an error (docs/limits.md). */
export const MAX_CALLS_PER_ANSWER = 10;
/** Arguments and results as the trace keeps them. */
export const MAX_TRACE_BYTES = 2048;
export const DEFAULT_TOKENS_PER_CONVERSATION_DAY = 50_000;

const clamp = (n: number, min: number, max: number): number => Math.min(Math.max(Math.floor(n), min), max);
const traceText = (text: string): string => cutToBytes(text, MAX_TRACE_BYTES);

/** The agent keeps the conversation: the user's next text comes to it (its `answer`). */
export function hold(action: Action, rc: RunContext): Flow {
  rc.state.waiting = { actionId: String(action.id), wrongAnswers: 0, agent: true };
  return { kind: 'wait' };
}

/** A turn on the user's text, or going on after a colleague decided the call the agent waited on. */
export function* agentTurn(action: Action, rc: RunContext, input: string | ApprovalDecision): Gen<Flow> {
  const deadline = rc.now() + clamp(numberField(action.timeoutMs) ?? DEFAULT_AGENT_TIMEOUT_MS, 1, MAX_AGENT_TIMEOUT_MS);
  const maxSteps = clamp(numberField(action.maxSteps) ?? DEFAULT_MAX_STEPS, 1, MAX_MAX_STEPS);
  const history = clamp(numberField(action.history) ?? DEFAULT_AGENT_HISTORY, 0, MAX_AGENT_HISTORY);
  const instructions = rc.render(action.instructions);
  const trace: AgentTraceStep[] = [];
  const day = Math.floor(rc.now() / DAY_MS);

  const end = function* (status: AgentStatus): Gen<Flow> {
    rc.setVariable('agent_status', status);
    rc.effect({ kind: 'agentTrace', steps: trace });
    if (status === 'OK') return hold(action, rc);
    const flow = yield* rc.runActions(action.onError);
    return flow.kind === 'next' ? hold(action, rc) : flow;
  };

  const decided = typeof input === 'string' ? null : input;
  if (decided === null && usedToday(rc, day) >= conversationBudget(rc)) return yield* end('BUDGET');
  const tools = yield* offerTools(objectList(action.tools) as ToolConfig[]);
  const specs = [...tools.values()].map((t) => t.spec);
  const messages: AgentMessage[] = decided === null ? [{ role: 'user', content: input as string }] : [...decided.messages];
  const citable: Citable[] = [];
  if (decided !== null) {
    // decided once, made at most once (the caller's atomic decision); then the model reads the result
    const call = { id: decided.callId, name: decided.tool, arguments: JSON.stringify(decided.arguments) };
    const outcome = decided.approved ? yield* callTool(call, tools, rc, deadline, citable, trace, true) : { kind: 'result' as const, text: refusal(call.name, decided.reason, trace) };
    messages.push({ role: 'tool', toolCallId: call.id, content: outcome.kind === 'result' ? outcome.text : '{"error":"the call did not run"}' });
    if (usedToday(rc, day) >= conversationBudget(rc)) return yield* end('BUDGET');
  }

  for (let step = 0; step < maxSteps; step++) {
    const left = deadline - rc.now();
    if (left <= 0) return yield* end('TIMEOUT');
    const started = rc.now();
    const answer = toModelAnswer(yield* rc.askOutside({ kind: 'agentModel', instructions, history, messages: [...messages], tools: specs, timeoutMs: left }));
    if (answer.status !== 'NOT_CONFIGURED' && answer.status !== 'BUDGET') rc.countApiCall();
    rc.countAiTokens(answer.tokens);
    addUsage(rc, day, answer.tokens);
    trace.push({ Kind: 'model', Status: answer.status, Ms: Math.max(0, rc.now() - started), Tokens: answer.tokens });
    if (answer.status === 'TIMEOUT' || answer.status === 'BUDGET') return yield* end(answer.status);
    if (answer.status !== 'OK') return yield* end('ERROR');
    if (answer.toolCalls.length === 0) {
      const said = cutToBytes(answer.text, MAX_AI_ANSWER_BYTES).trim();
      if (said === '') return yield* end('ERROR');
      sayCiting(rc, said, citable);
      if (typeof action.variable === 'string' && action.variable !== '') rc.setVariable(action.variable, said);
      return yield* end('OK');
    }
    messages.push({ role: 'assistant', content: answer.text === '' ? null : answer.text, toolCalls: answer.toolCalls });
    for (const [index, call] of answer.toolCalls.entries()) {
      const outcome =
        index < MAX_CALLS_PER_ANSWER ? yield* callTool(call, tools, rc, deadline, citable, trace) : refused(call, `at most ${MAX_CALLS_PER_ANSWER} tool calls are made per answer`, trace);
      if (outcome.kind === 'approval') {
        // the calls after it in this answer are not made: the model may ask again once it is decided
        for (const later of answer.toolCalls.slice(index + 1))
          messages.push({ role: 'tool', toolCallId: later.id, content: refused(later, 'not made: an earlier call waits for an approval', trace).text });
        trace.push({ Kind: 'tool', Name: call.name, Arguments: traceText(call.arguments), Status: 'APPROVAL', Ms: 0 });
        rc.setVariable('agent_status', 'APPROVAL');
        rc.effect({ kind: 'agentTrace', steps: trace });
        return askApproval(action, rc, call, outcome.args, outcome.message, messages);
      }
      if (outcome.kind === 'leave') {
        rc.setVariable('agent_status', 'OK');
        rc.effect({ kind: 'agentTrace', steps: trace });
        return outcome.flow;
      }
      messages.push({ role: 'tool', toolCallId: call.id, content: outcome.text });
    }
  }
  return yield* end('MAX_STEPS');
}

type CallOutcome = { kind: 'result'; text: string } | { kind: 'leave'; flow: Flow } | { kind: 'approval'; args: Record<string, unknown>; message: unknown };

function* callTool(call: AgentToolCall, tools: Map<string, OfferedTool>, rc: RunContext, deadline: number, citable: Citable[], trace: AgentTraceStep[], approved = false): Gen<CallOutcome> {
  const tool = tools.get(call.name);
  if (tool === undefined) return refused(call, `unknown tool: ${cutToBytes(call.name, 80)}`, trace);
  const parsed = parseArguments(call.arguments, tool.spec.parameters);
  if (!parsed.ok) return refused(call, parsed.error, trace);
  if (tool.config.approval === true && !approved) return { kind: 'approval', args: parsed.value, message: tool.config.approvalMessage };
  const left = deadline - rc.now();
  if (left <= 0) return refused(call, 'no time left in this turn', trace, 'TIMEOUT');
  const started = rc.now();
  const outcome = yield* runTool(tool, parsed.value, rc, left, citable);
  const step: AgentTraceStep = {
    Kind: 'tool',
    Name: call.name,
    Arguments: traceText(call.arguments),
    Status: outcome.kind === 'leave' || outcome.ok ? 'OK' : 'ERROR',
    Ms: Math.max(0, rc.now() - started),
  };
  if (outcome.kind === 'result') step.Result = traceText(outcome.text);
  trace.push(step);
  return outcome;
}

/** A call that is not made: the model reads why, as the call's result, and may correct itself. */
function refused(call: AgentToolCall, error: string, trace: AgentTraceStep[], status = 'ERROR'): { kind: 'result'; text: string } {
  // 100 refused calls in one answer make one line of trace each, bounded by what the client reads
  trace.push({ Kind: 'tool', Name: cutToBytes(call.name, 80), Arguments: traceText(call.arguments), Status: status, Ms: 0, Error: error });
  return { kind: 'result', text: JSON.stringify({ error }) };
}

/** The text, with the sources of the knowledge passages it cites as `[n]` (as the knowledge action says them). */
function sayCiting(rc: RunContext, text: string, citable: readonly Citable[]): void {
  const cited = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= citable.length) cited.add(n);
  }
  const passages = [...cited].sort((a, b) => a - b).map((n) => citable[n - 1]);
  const sources = [...new Set(passages.map((p) => p.source))];
  const links = new Map(passages.filter((p) => p.url !== null).map((p) => [p.source, p.url!]));
  sayWithSources(
    rc,
    text,
    sources,
    [...links].map(([name, url]) => ({ name, url })),
  );
}

function conversationBudget(rc: RunContext): number {
  const ai = rc.bot.source.settings?.ai;
  return numberField(ai?.maxTokensPerConversationDay) ?? DEFAULT_TOKENS_PER_CONVERSATION_DAY;
}

const usedToday = (rc: RunContext, day: number): number => (rc.state.agentUsage?.day === day ? rc.state.agentUsage.tokens : 0);

function addUsage(rc: RunContext, day: number, tokens: number): void {
  if (!Number.isFinite(tokens) || tokens <= 0) return;
  rc.state.agentUsage = { day, tokens: usedToday(rc, day) + Math.floor(tokens) };
}

/** The caller's answer, read defensively: anything unexpected is an ERROR. */
function toModelAnswer(answer: RequestAnswer | undefined): AgentModelAnswer {
  const error: AgentModelAnswer = { status: 'ERROR', text: '', toolCalls: [], tokens: 0 };
  if (typeof answer !== 'object' || answer === null || !('toolCalls' in answer) || !Array.isArray(answer.toolCalls)) return error;
  const statuses = ['OK', 'TIMEOUT', 'ERROR', 'NOT_CONFIGURED', 'BUDGET'];
  const tokens = typeof answer.tokens === 'number' && Number.isFinite(answer.tokens) ? Math.max(0, answer.tokens) : 0;
  if (!statuses.includes(answer.status)) return { ...error, tokens };
  const toolCalls = answer.toolCalls.filter((c) => typeof c?.id === 'string' && typeof c.name === 'string' && typeof c.arguments === 'string');
  return { status: answer.status, text: typeof answer.text === 'string' ? answer.text : '', toolCalls, tokens };
}
