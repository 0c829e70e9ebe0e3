// What an action sees while it runs (the RunContext) and what it answers (a Flow). Actions are
// generator functions: most never yield; callApi and shareUrl yield an EngineRequest and receive
// the caller's answer. Nested operation lists (then/else/onClick/...) run via `rc.runActions`, whose
// Flow the action returns so that a goTo deep inside still moves the conversation.

import type { Action } from './bot-file.js';
import type { CompiledBehaviour, CompiledBot, CompiledInteraction } from './compiled.js';
import type { ConversationState, Effect, EngineRequest, ReplyPart, RequestAnswer } from './types.js';
import type { PartTypeCode } from './parts.js';

/** How an action (or a list of them) hands control back to the turn runner. */
export type Flow =
  /** carry on with the next action */
  | { kind: 'next' }
  /** move there and run it (or only move when cancelFurtherExecution); the rest of the list is skipped */
  | { kind: 'goto'; target: CompiledInteraction; cancelFurtherExecution: boolean }
  /** an input waits for the user's next text (the action has set state.waiting) */
  | { kind: 'wait' }
  /** an operator action handed control away */
  | { kind: 'handover' }
  /** `stop`, or a loop guard tripped */
  | { kind: 'end'; reason: 'stop' | 'guard' };

export const NEXT: Flow = Object.freeze({ kind: 'next' });

/** Returning nothing means `next`. */
export type ActionRun = Generator<EngineRequest, Flow | void, RequestAnswer>;

/** Optional fields of a reply part; TypeDelay is computed for text-like types when absent. */
export interface PartFields {
  Text?: string | null;
  Command?: string | null;
  TypeDelay?: number;
  Parts?: ReplyPart[];
  Url?: string;
  Title?: string;
  Subtitle?: string | null;
  ImageUrl?: string | null;
}

export interface RunContext {
  readonly bot: CompiledBot;
  /** the turn's own working copy: actions change variables, tags, privacy, bookmark, waiting in place */
  readonly state: ConversationState;
  /** the interaction whose actions run now (parts carry its names); null only in a bot without interactions */
  readonly here: CompiledInteraction | null;
  /** here's behaviour, else the start behaviour */
  currentBehaviour(): CompiledBehaviour | null;
  /** a text field rendered as a template against the current variables; non-strings give '' */
  render(template: unknown): string;
  /** a reply part stamped with here's names and its TypeDelay; not yet said */
  part(type: PartTypeCode, fields?: PartFields): ReplyPart;
  /** adds a part to the reply */
  say(part: ReplyPart): void;
  /** null unsets */
  setVariable(name: string, value: string | null): void;
  getVariable(name: string): string | undefined;
  effect(effect: Effect): void;
  /** one item picked with ctx.random, undefined for an empty list */
  pick<T>(items: readonly T[]): T | undefined;
  /** ms left before the 10 s turn guard */
  timeLeftMs(): number;
  /** the turn's clock (ms): an agent's own timeout and its budget's day read it */
  now(): number;
  /**
   * The user's text this turn runs on, once: the first agent the flow reaches takes it as its
   * input (agents.md "Holding the conversation"); null for a start without text, a click, a
   * forced position, or when an agent already took it.
   */
  takeUserText(): string | null;
  /** accounting: every callApi run and every AI call counts */
  countApiCall(): void;
  /** accounting: tokens an AI provider reported */
  countAiTokens(tokens: number): void;
  /**
   * Yields a request whose wait does not count against the 10 s loop guard (AI steps have their
   * own timeout, up to 60 s): the guard stops runaway flows, not slow providers.
   */
  askOutside(request: EngineRequest): Generator<EngineRequest, RequestAnswer, RequestAnswer>;
  /** runs an operation list (non-arrays run nothing) under the turn's guards */
  runActions(actions: unknown): Generator<EngineRequest, Flow, RequestAnswer>;
}

export type { Action };
