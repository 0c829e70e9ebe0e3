// `knowledge`: a question to the bot's knowledge sources (knowledge.md "In the bot file"). The
// engine only yields the request; the caller searches and, with an AI provider, makes the one call,
// outside any transaction, and a retried turn never repeats it. `kb_status` and `kb_sources` say
// how it went; the answer goes to `variable` and, with `say`, is said with its sources after it.
// On anything but ANSWERED `onNoAnswer` runs and the list goes on. An answer needs the best
// passage's score to reach the step's `minScore`, else the bot's `knowledge.minScore` (shared/knowledge-defaults.ts).
import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { PartType } from '../../parts.js';
import type { RunContext } from '../../run-context.js';
import type { EngineRequest, KnowledgeReply, KnowledgeStatus, RequestAnswer } from '../../types.js';
import { numberField } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS } from '../schema-parts.js';
import { DEFAULT_KNOWLEDGE_TIMEOUT_MS, DEFAULT_MAX_PASSAGES, MAX_KNOWLEDGE_TIMEOUT_MS, MAX_PASSAGES, minScoreOf } from '../../../shared/knowledge-defaults.js';
const DEFAULT_VARIABLE = 'kb_answer';

export interface KnowledgeAsk {
  question: string;
  instructions: string;
  maxPassages: number;
  timeoutMs: number;
  minScore: number;
  variable: string | null;
  say: boolean;
  cite: boolean;
}

/**
 * Asks, counts the call like an `ai` step, sets kb_status / kb_sources / the variable and says the
 * answer; returns the status. Also what `knowledge.beforeFallback` runs (run-turn.ts).
 */
export function* askKnowledge(rc: RunContext, ask: KnowledgeAsk): Generator<EngineRequest, KnowledgeStatus, RequestAnswer> {
  const reply = toReply(
    yield* rc.askOutside({ kind: 'knowledge', question: ask.question, instructions: ask.instructions, maxPassages: ask.maxPassages, timeoutMs: ask.timeoutMs, minScore: ask.minScore }),
  );
  if (reply.calledProvider) rc.countApiCall();
  rc.countAiTokens(reply.tokens);
  const answered = reply.status === 'ANSWERED' && reply.answer !== null && reply.answer.trim() !== '';
  const status: KnowledgeStatus = answered ? 'ANSWERED' : reply.status === 'ANSWERED' ? 'NO_ANSWER' : reply.status;
  rc.effect({ kind: 'knowledgeAsked', answered });
  rc.setVariable('kb_status', status);
  rc.setVariable('kb_sources', answered ? reply.sources.join(', ') : '');
  if (ask.variable !== null) rc.setVariable(ask.variable, answered ? reply.answer : '');
  if (answered && ask.say) say(rc, reply, ask.cite);
  return status;
}

/** The answer; with `cite`, the sources' names after it, and a link button for each Url source. */
function say(rc: RunContext, reply: KnowledgeReply, cite: boolean): void {
  sayWithSources(rc, reply.answer!, cite ? reply.sources : [], cite ? (reply.links ?? []) : []);
}

/**
 * An answer resting on sources (the knowledge action, an agent's text citing `[n]`): the names of
 * the sources after it, and a link button for each of them fetched from a Url.
 */
export function sayWithSources(rc: RunContext, answer: string, sources: readonly string[], links: ReadonlyArray<{ name: string; url: string }>): void {
  const linked = new Set(links.map((l) => l.name));
  const named = sources.filter((name) => !linked.has(name));
  const text = named.length > 0 ? `${answer}\n\nSources: ${named.join(', ')}` : answer;
  if (links.length === 0) return rc.say(rc.part(PartType.Text, { Text: text }));
  rc.say(rc.part(PartType.Buttons, { Text: text, Parts: links.map((l) => rc.part(PartType.Link, { Text: l.name, Url: l.url })) }));
}

export const knowledgeAction = defineAction({
  type: 'knowledge',
  needsId: false,
  schema: actionSchema('knowledge', {
    question: Type.Optional(Type.String({ description: 'what is asked (a template); default the last user text' })),
    variable: Type.Optional(NON_EMPTY_TEXT),
    say: Type.Optional(Type.Boolean({ description: 'say the answer as a text part (default true)' })),
    cite: Type.Optional(Type.Boolean({ description: 'name the sources after the answer (default true)' })),
    instructions: Type.Optional(Type.String({ maxLength: 4096, description: 'for the model, when the bot has an AI provider (a template)' })),
    maxPassages: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PASSAGES, description: `passages the model sees (default ${DEFAULT_MAX_PASSAGES})` })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_KNOWLEDGE_TIMEOUT_MS })),
    minScore: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, title: 'Minimum score for an answer', description: "for this step, instead of the bot's knowledge.minScore: below it, onNoAnswer runs" }),
    ),
    onNoAnswer: Type.Optional(OPERATIONS),
  }),
  *run(action, rc) {
    const question = typeof action.question === 'string' ? rc.render(action.question) : (rc.getVariable('last_user_text') ?? '');
    const status = yield* askKnowledge(rc, {
      question,
      instructions: rc.render(action.instructions),
      maxPassages: clamp(numberField(action.maxPassages) ?? DEFAULT_MAX_PASSAGES, 1, MAX_PASSAGES),
      timeoutMs: clamp(numberField(action.timeoutMs) ?? DEFAULT_KNOWLEDGE_TIMEOUT_MS, 1, MAX_KNOWLEDGE_TIMEOUT_MS),
      minScore: minScoreOf(numberField(action.minScore) ?? rc.bot.knowledge?.minScore),
      variable: typeof action.variable === 'string' && action.variable !== '' ? action.variable : DEFAULT_VARIABLE,
      say: action.say !== false,
      cite: action.cite !== false,
    });
    if (status !== 'ANSWERED') return yield* rc.runActions(action.onNoAnswer);
  },
});

/** The caller's answer, read defensively: anything unexpected is an ERROR. */
function toReply(answer: RequestAnswer | undefined): KnowledgeReply {
  const error: KnowledgeReply = { status: 'ERROR', answer: null, sources: [], calledProvider: false, tokens: 0 };
  if (typeof answer !== 'object' || answer === null || !('sources' in answer) || !('calledProvider' in answer)) return error;
  const statuses: KnowledgeStatus[] = ['ANSWERED', 'NO_ANSWER', 'ERROR', 'TIMEOUT'];
  return {
    status: statuses.includes(answer.status) ? answer.status : 'ERROR',
    answer: typeof answer.answer === 'string' ? answer.answer : null,
    sources: Array.isArray(answer.sources) ? answer.sources.filter((s): s is string => typeof s === 'string') : [],
    links: Array.isArray(answer.links) ? answer.links.filter((l) => typeof l?.name === 'string' && typeof l?.url === 'string') : [],
    calledProvider: answer.calledProvider === true,
    tokens: typeof answer.tokens === 'number' && Number.isFinite(answer.tokens) ? Math.max(0, answer.tokens) : 0,
  };
}

const clamp = (n: number, min: number, max: number): number => Math.min(Math.max(Math.floor(n), min), max);
