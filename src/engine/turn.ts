// One turn in progress: the RunContext given to actions, the guards that keep a bad bot from
// looping forever (25 moves, 1,000 actions, 10 s), and the loop that follows goTo moves.

import type { Action } from './bot-file.js';
import { renderTemplate } from '../shared/template.js';
import { utf8Bytes } from '../shared/utf8.js';
import type { ActionDefinition } from './action-definition.js';
import { positionOf, type CompiledBehaviour, type CompiledBot, type CompiledInteraction } from './compiled.js';
import { actionRegistry } from './registry.js';
import { NEXT, type ActionRun, type Flow, type PartFields, type RunContext } from './run-context.js';
import type { ActionDiagnostic, ConversationState, Effect, EngineContext, EngineRequest, ReplyPart, RequestAnswer, TurnEnd, TurnMatch } from './types.js';
import { PartType, type PartTypeCode } from './parts.js';

export const MAX_MOVES = 25;
export const MAX_ACTIONS = 1000;
export const MAX_TURN_MS = 10_000;
/**
 * UTF-8 bytes of parts (as JSON) one turn may say; the part that would pass it and every later
 * one are dropped, with a diagnostic. A message holds at most two turns (a start and a text), so
 * no message nears the 1 MiB history cap (docs/limits.md), whatever the flow says.
 */
export const MAX_SAID_BYTES = 256 * 1024;

const GUARD: Flow = Object.freeze({ kind: 'end', reason: 'guard' });
/** Reply part types whose text is "typed" and so carries a TypeDelay (api.md 3 rule 10). */
const TYPED_PART_TYPES: ReadonlySet<number> = new Set([PartType.Text, PartType.Question, PartType.Buttons]);

type TurnGen<T> = Generator<EngineRequest, T, RequestAnswer>;

export class Turn implements RunContext {
  readonly parts: ReplyPart[] = [];
  readonly effects: Effect[] = [];
  readonly diagnostics: ActionDiagnostic[] = [];
  apiCalls = 0;
  aiTokens = 0;
  /** what took the user text (run-turn.ts sets it; the preview explains it) */
  matched: TurnMatch | null = null;
  /** the user's text of this turn until an agent takes it (run-turn.ts sets it) */
  userText: string | null = null;
  here: CompiledInteraction | null = null;
  private moves = 0;
  /** time spent waiting for AI answers: a model may take longer than the loop guard's 10 s */
  private waitedMs = 0;
  private actionsRun = 0;
  private readonly startedAt: number;
  private saidBytes = 0;
  private droppedParts = false;

  constructor(
    readonly bot: CompiledBot,
    readonly state: ConversationState,
    private readonly ctx: EngineContext,
  ) {
    this.startedAt = ctx.now();
  }

  // ---- RunContext ----

  currentBehaviour(): CompiledBehaviour | null {
    return this.here?.behaviour ?? this.bot.startBehaviour;
  }

  render(template: unknown): string {
    return typeof template === 'string' ? renderTemplate(template, this.state.variables) : '';
  }

  part(type: PartTypeCode, fields: PartFields = {}): ReplyPart {
    const text = fields.Text ?? null;
    const part: ReplyPart = {
      Type: type,
      Text: text,
      Command: fields.Command ?? null,
      TypeDelay: fields.TypeDelay ?? this.typingDelay(type, text),
      BehaviourName: this.here?.behaviour.name ?? '',
      InteractionName: this.here?.name ?? '',
      Parts: fields.Parts ?? [],
    };
    // Optional wire fields are added only when given, after the common ones (stable field order).
    if (fields.Url !== undefined) part.Url = fields.Url;
    if (fields.Title !== undefined) part.Title = fields.Title;
    if (fields.Subtitle !== undefined) part.Subtitle = fields.Subtitle;
    if (fields.ImageUrl !== undefined) part.ImageUrl = fields.ImageUrl;
    return part;
  }

  say(part: ReplyPart): void {
    // What a turn says stays a prefix of what it meant to say: after the first part that does not
    // fit, nothing more is said (and one diagnostic, not one per part of a loop).
    if (this.droppedParts) return;
    const bytes = utf8Bytes(JSON.stringify(part));
    if (this.saidBytes + bytes > MAX_SAID_BYTES) {
      this.droppedParts = true;
      this.diagnose(null, null, new Error(`parts dropped: a turn says at most ${MAX_SAID_BYTES} bytes`));
      return;
    }
    this.saidBytes += bytes;
    this.parts.push(part);
  }

  setVariable(name: string, value: string | null): void {
    if (value === null) delete this.state.variables[name];
    else this.state.variables[name] = value;
  }

  getVariable(name: string): string | undefined {
    return Object.hasOwn(this.state.variables, name) ? this.state.variables[name] : undefined;
  }

  effect(effect: Effect): void {
    this.effects.push(effect);
  }

  pick<T>(items: readonly T[]): T | undefined {
    if (items.length === 0) return undefined;
    const index = Math.floor(this.ctx.random() * items.length);
    return items[Math.min(Math.max(index, 0), items.length - 1)];
  }

  timeLeftMs(): number {
    return MAX_TURN_MS - (this.ctx.now() - this.startedAt - this.waitedMs);
  }

  now(): number {
    return this.ctx.now();
  }

  takeUserText(): string | null {
    const text = this.userText;
    this.userText = null;
    return text;
  }

  countApiCall(): void {
    this.apiCalls += 1;
  }

  countAiTokens(tokens: number): void {
    if (Number.isFinite(tokens) && tokens > 0) this.aiTokens += Math.floor(tokens);
  }

  *askOutside(request: EngineRequest): TurnGen<RequestAnswer> {
    const before = this.ctx.now();
    const answer = yield request;
    this.waitedMs += Math.max(0, this.ctx.now() - before);
    return answer;
  }

  *runActions(actions: unknown): TurnGen<Flow> {
    if (!Array.isArray(actions)) return NEXT;
    for (const [index, action] of actions.entries()) {
      if (this.guardTripped()) return GUARD;
      if (!isAction(action)) continue;
      const definition = actionRegistry.get(action.type);
      if (definition === undefined) continue; // unknown type: skipped, as any malformed action
      const flow = yield* this.safely(action, index, () => definition.run(action, this));
      if (flow.kind !== 'next') return flow;
    }
    return NEXT;
  }

  // ---- used by runTurn ----

  /**
   * Runs an action's generator; an action that throws on a malformed bot is skipped, never fatal,
   * but leaves a diagnostic. `index` is its place in the list being run, null for a click or an answer.
   */
  *safely(action: Action, index: number | null, run: () => ActionRun): TurnGen<Flow> {
    try {
      return (yield* run()) ?? NEXT;
    } catch (error) {
      this.diagnose(action.type, index, error);
      return NEXT;
    }
  }

  /** Records a failure where the turn stands now. */
  diagnose(action: string | null, index: number | null, error: unknown): void {
    this.diagnostics.push({
      action,
      at: { behaviour: this.here?.behaviour.name ?? null, interaction: this.here?.name ?? null, index },
      error: error instanceof Error ? error.message : String(error),
    });
  }

  /** Changes the position to `target`. `fromGoTo` records the goto_source_* variables. */
  moveTo(target: CompiledInteraction, fromGoTo: boolean): void {
    if (fromGoTo && this.here !== null) {
      this.setVariable('goto_source_behaviour', this.here.behaviour.name);
      this.setVariable('goto_source_interaction', this.here.name);
    }
    const from = this.state.position;
    const to = positionOf(target);
    // `previous` is the interaction the conversation was in before this one: re-entering the same
    // interaction keeps it, so that `goTo previous` never points at where we already are.
    if (from === null || !samePosition(from, to)) this.state.previous = from;
    this.state.position = to;
    this.state.waiting = null; // a waiting input belongs to the interaction we are leaving
    this.here = target;
  }

  /** Enters an interaction as the turn's first (not a counted move) and follows where it leads. */
  *enter(target: CompiledInteraction, fromGoTo = false): TurnGen<TurnEnd> {
    this.moveTo(target, fromGoTo);
    return yield* this.follow(yield* this.runActions(target.actions));
  }

  /** Follows a flow to the end of the turn: each goTo is a move, the 26th stops the turn. */
  *follow(first: Flow): TurnGen<TurnEnd> {
    let flow = first;
    for (;;) {
      switch (flow.kind) {
        case 'next':
          return 'done';
        case 'wait':
          return 'input';
        case 'handover':
          return 'operator';
        case 'end':
          return flow.reason;
        case 'goto': {
          this.moves += 1;
          if (this.moves > MAX_MOVES) return 'guard';
          this.moveTo(flow.target, true);
          if (flow.cancelFurtherExecution) return 'done';
          flow = yield* this.runActions(flow.target.actions);
          break;
        }
      }
    }
  }

  /** Every action run counts, nested ones included; the clock is read before each. */
  private guardTripped(): boolean {
    this.actionsRun += 1;
    return this.actionsRun > MAX_ACTIONS || this.timeLeftMs() <= 0;
  }

  private typingDelay(type: number, text: string | null): number {
    if (!this.bot.enableTypeSpeed || text === null || !TYPED_PART_TYPES.has(type)) return 0;
    const words = text.split(/\s+/).filter((word) => word !== '').length;
    return Math.round((words * 60_000) / this.bot.wordsPerMinute);
  }
}

export function isAction(value: unknown): value is Action {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export function definitionOf(action: Action): ActionDefinition | undefined {
  return actionRegistry.get(action.type);
}

function samePosition(a: { behaviour: string; interaction: string }, b: { behaviour: string; interaction: string }): boolean {
  return a.behaviour.toLowerCase() === b.behaviour.toLowerCase() && a.interaction.toLowerCase() === b.interaction.toLowerCase();
}
