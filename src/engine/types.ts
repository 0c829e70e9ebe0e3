// The engine's contract: a turn is a pure function of (live bot, conversation state, input).
// It is written as a generator so that the few things it must ask the outside world for (an HTTP
// answer for callApi, a share URL) are *requests* yielded to the caller, who does the I/O and hands
// the answer back with `next(answer)`. Everything else the turn wants done is returned as effects.

import type { Action, BotFile } from './bot-file.js';
import type { AiStatus, AgentModelRequest, AgentModelAnswer, McpToolsRequest, McpToolsAnswer, McpCallRequest, McpCallAnswer, AgentTraceStep, ApprovalAsked, ApprovalDecision } from './model-calls.js';
// What the engine asks of models and MCP servers lives in model-calls.ts; read here as before.
export type {
  AiStatus,
  AgentToolSpec,
  AgentToolCall,
  AgentMessage,
  AgentModelRequest,
  AgentModelAnswer,
  McpToolsRequest,
  McpToolsAnswer,
  McpCallRequest,
  McpCallAnswer,
  AgentTraceStep,
  ApprovalAsked,
  ApprovalDecision,
} from './model-calls.js';

/** A reply part on the wire (api.md section 3). Optional fields appear only on the types that use them. */
export interface ReplyPart {
  /** a PartType (engine/parts.ts); a number on the wire, since injected parts may carry any */
  Type: number;
  Text: string | null;
  Command: string | null;
  TypeDelay: number;
  BehaviourName: string;
  InteractionName: string;
  Parts: ReplyPart[];
  Url?: string;
  Title?: string;
  Subtitle?: string | null;
  ImageUrl?: string | null;
}

export interface Position {
  behaviour: string;
  interaction: string;
}

export interface WaitingInput {
  /** id of the `input` (or `agent`) action that waits */
  actionId: string;
  wrongAnswers: number;
  /** an `agent` holds the conversation (agents.md): an operator's takeover lets it go */
  agent?: true;
  /** the agent waits for a colleague to decide its call with this id (agents.md approvals): texts do not reach it */
  approval?: string;
}

/** The tokens the agents of a conversation used on one day (agents.md "Budgets"). */
export interface AgentUsage {
  /** days since the epoch (UTC) */
  day: number;
  tokens: number;
}

/** Everything the engine needs to remember about a conversation between turns (stored as JSON).
 *  Stored states are read through `stateFromStored` (state.ts), which upgrades older shapes. */
export interface ConversationState {
  /** shape version (STATE_VERSION); a state stored before versions existed has none */
  v: 1;
  /** null until the conversation has run its first interaction */
  position: Position | null;
  previous: Position | null;
  bookmark: Position | null;
  variables: Record<string, string>;
  tags: string[];
  privacy: Record<string, boolean>;
  waiting: WaitingInput | null;
  /**
   * api.md rule 6b: the `controlChangedAt` of the hand-over request whose waiting text was said,
   * so the visitor hears "a colleague will be with you" once per request, not after every text.
   */
  waitingNoticeFor?: number;
  /** tokens the conversation's agents used today, against settings.ai.maxTokensPerConversationDay */
  agentUsage?: AgentUsage;
}

export type TurnInput =
  /** RESET / new conversation; with `text`: "skipping initiation" (api.md 3 rule 1) */
  | { kind: 'start'; text?: string }
  | { kind: 'text'; text: string }
  /** a button payload (GUID); unknown payloads run the fallback */
  | { kind: 'command'; payload: string }
  /** forced position: unknown names go to the start interaction of the start behaviour */
  | { kind: 'goto'; behaviour?: string; interaction?: string }
  /** a colleague decided the approval an agent waits for (agents.md "Tools") */
  | { kind: 'approval'; decision: ApprovalDecision };

/** Requests yielded to the caller; the caller answers with `generator.next(answer)`. */
export type EngineRequest =
  | { kind: 'http'; method: string; url: string; headers: Record<string, string>; body: string | null; timeoutMs: number }
  | { kind: 'shareUrl'; mode: string; hours: number }
  | ClassifyRequest
  | AiRequest
  | KnowledgeRequest
  | AgentModelRequest
  | McpToolsRequest
  | McpCallRequest;

/**
 * A question to the bot's knowledge (knowledge.md): search, then one call to the AI provider when
 * there is one (else the best passage). Answered by the caller outside any transaction.
 */
export interface KnowledgeRequest {
  kind: 'knowledge';
  question: string;
  instructions: string;
  maxPassages: number;
  timeoutMs: number;
  /** the best passage's score (0..1) must reach this for an answer; below it NO_ANSWER */
  minScore: number;
  /** an agent's `knowledge` tool: the passages found, no model call (the agent's model reads them) */
  passagesOnly?: true;
}

export type KnowledgeStatus = 'ANSWERED' | 'NO_ANSWER' | 'ERROR' | 'TIMEOUT';

export interface KnowledgeReply {
  status: KnowledgeStatus;
  /** null unless ANSWERED */
  answer: string | null;
  /** the sources the answer rests on, by name, without repeats */
  sources: string[];
  /** those of them fetched from a Url, with it (cited as link buttons) */
  links?: Array<{ name: string; url: string }>;
  /** whether the provider was called (one ApiCalls) */
  calledProvider: boolean;
  tokens: number;
  /** with `passagesOnly`: the passages that reach minScore, best first */
  passages?: Array<{ text: string; source: string; url: string | null }>;
}

/** Scores of the live version's trained intents for a user text (understanding.md). */
export interface ClassifyRequest {
  kind: 'classify';
  text: string;
}

/** Every trained intent with its score, best first (the out-of-scope class is not listed). */
export interface ClassifyAnswer {
  intents: Array<{ intent: string; score: number }>;
  /** tokens an embedding model used to read the text (usage AiTokens; understanding/intent-embeddings.ts) */
  tokens?: number;
}

/**
 * One Chat Completions call to the bot's AI provider. The caller adds the last `history` stored
 * messages of the conversation between the instructions and `input`.
 */
export interface AiRequest {
  kind: 'ai';
  instructions: string;
  input: string;
  history: number;
  maxTokens: number | null;
  temperature: number | null;
  timeoutMs: number;
  /** the answer is said to the user (reply mode with `say`), so it may be shown as it streams */
  said?: boolean;
}

export interface AiAnswer {
  status: AiStatus;
  /** the model's answer (empty unless OK) */
  text: string;
  /** tokens the provider reported for the call (prompt + completion), 0 when unknown */
  tokens: number;
}

export interface HttpAnswer {
  /** HTTP status, or 'TIMEOUT' / 'ERROR' */
  status: number | 'TIMEOUT' | 'ERROR';
  /** response body as text (already capped by the caller) */
  body: string;
  /**
   * What the sender did that the flow cannot see, for a trace to show (agents.md "Secrets"): e.g. a
   * `{{secret.NAME}}` sent empty because the request's host is not among the secret's Hosts. Names
   * and hosts only, never a value. Absent when there is nothing to say.
   */
  notes?: string[];
}

/** The answer to a `shareUrl` request is the URL string. */
export type RequestAnswer = HttpAnswer | string | ClassifyAnswer | AiAnswer | KnowledgeReply | AgentModelAnswer | McpToolsAnswer | McpCallAnswer;

/** Effects carried out by the caller after the turn, in the turn's transaction where they touch the DB. */
export type Effect =
  | { kind: 'control'; mode: 'request' | 'takeover' | 'bot'; operator?: string }
  | { kind: 'forget' }
  | { kind: 'asyncHttp'; method: string; url: string; headers: Record<string, string>; body: string | null; timeoutMs: number }
  /** a user text that reached a fallback, and where the conversation stood when it came (missed texts) */
  | { kind: 'missed'; text: string; behaviour: string; interaction: string }
  /** a question asked of the bot's knowledge (the action or beforeFallback): per-day analytics */
  | { kind: 'knowledgeAsked'; answered: boolean }
  /** an agent's `handover` tool: the model's reason, a note on the conversation for the operators */
  | { kind: 'note'; text: string }
  /** the steps of one agent turn (agents.md "Trace"), stored with the turn */
  | { kind: 'agentTrace'; steps: AgentTraceStep[] }
  /** an agent's call that waits for a colleague's approval, stored with the turn */
  | ApprovalAsked;

export type TurnEnd = 'done' | 'input' | 'operator' | 'stop' | 'guard';

/**
 * An action that threw while it ran. The turn skips it and goes on (a bad bot never fails a
 * request), but the caller logs these so the failure is not silent.
 */
export interface ActionDiagnostic {
  /** the action's `type`; null when the turn itself failed outside any action */
  action: string | null;
  /** where it stood: the interaction the turn was in, and its index in the list being run (null for a click or an answer) */
  at: { behaviour: string | null; interaction: string | null; index: number | null };
  error: string;
}

/**
 * What took a user text, for the designer's preview to explain (docs/designer.md "Why the bot
 * answered"): a trigger (keyword, regex or intent, with where it is defined), the waiting input,
 * the knowledge, or the fallback. No channel sends it: only the preview reads it.
 */
export interface TurnMatch {
  kind: 'keyword' | 'regex' | 'intent' | 'input' | 'knowledge' | 'fallback';
  /** the trigger's alternatives, pattern or intent name; '' for input, knowledge and fallback */
  name: string;
  /** an intent trigger's score (two decimals; 'ai' when the AI fallback chose the intent) */
  score: number | 'ai' | null;
  /** where the trigger is defined: its behaviour (null at bot level) and its index in that list */
  trigger: { behaviour: string | null; index: number } | null;
  /** the model's best intent when no trigger took the text (fallback, input, knowledge), even below the threshold */
  bestIntent: { name: string; score: number } | null;
  /** where the conversation stands once the turn is over: where the text took it */
  to: Position | null;
}

export interface TurnOutcome {
  state: ConversationState;
  parts: ReplyPart[];
  effects: Effect[];
  /** the `EnableUserChat` flag of the interaction where the turn stopped */
  enableUserChat: boolean;
  endedBy: TurnEnd;
  /** how many callApi actions and AI calls ran (accounting, api.md section 13) */
  apiCalls: number;
  /** tokens the AI provider reported for this turn's calls (usage `AiTokens`) */
  aiTokens: number;
  /** actions that threw and were skipped, in the order they failed; [] when none did */
  diagnostics: ActionDiagnostic[];
  /** what took the user text of this turn; null for a start without text, a button or a forced position */
  matched: TurnMatch | null;
}

export interface EngineContext {
  /** wall clock in ms; the 10 s guard reads it */
  now(): number;
  /** in [0, 1); `texts` picks with it */
  random(): number;
}

export type TurnGenerator = Generator<EngineRequest, TurnOutcome, RequestAnswer>;

export type { Action, BotFile };
