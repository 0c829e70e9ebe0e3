// Helpers for engine tests: tiny bots, a driver that answers the engine's requests, and a
// conversation that carries its state from turn to turn. Test-only; not imported by the server.

import type { Action, Behaviour, BotFile, Interaction, TextTrigger } from './bot-file.js';
import { compileBot, type CompiledBot } from './compile.js';
import { runTurn } from './run-turn.js';
import { newConversationState } from './state.js';
import type { ClassifyAnswer, ConversationState, EngineRequest, ReplyPart, RequestAnswer, TurnInput, TurnOutcome } from './types.js';

/** 600 words a minute: every word of a text part is 100 ms of TypeDelay. */
export const TEST_SETTINGS = { enableTypeSpeed: true, wordsPerMinute: 600 };

export function interaction(name: string, actions: Action[], extra: Partial<Interaction> = {}): Interaction {
  return { name, actions, ...extra };
}

export function behaviour(name: string, interactions: Interaction[], extra: Partial<Behaviour> = {}): Behaviour {
  return { name, interactions, ...extra };
}

/** A bot from behaviours; the first behaviour and each behaviour's first interaction are the starts
 *  unless one is marked. */
export function makeBot(behaviours: Behaviour[], extra: Partial<BotFile> = {}): CompiledBot {
  const marked = behaviours.map((b) => ({
    ...b,
    interactions: b.interactions.some((i) => i.start) ? b.interactions : b.interactions.map((i, n) => (n === 0 ? { ...i, start: true } : i)),
  }));
  if (!marked.some((b) => b.start) && marked.length > 0) marked[0] = { ...marked[0], start: true };
  return compileBot({ format: 'colloquy/bot@1', name: 'Test', settings: TEST_SETTINGS, behaviours: marked, ...extra });
}

/** Behaviour "Main": interaction "Start" running `actions`, plus any `others`. */
export function botWith(actions: Action[], others: Interaction[] = [], extra: Partial<BotFile> = {}): CompiledBot {
  return makeBot([behaviour('Main', [interaction('Start', actions), ...others])], extra);
}

export interface DriveOptions {
  /** answers to the engine's requests, in order (`classify` requests are answered by `classify`) */
  answers?: RequestAnswer[];
  /** the trained model's scores for a text; default: no intent scores at all */
  classify?: (text: string) => ClassifyAnswer;
  now?: () => number;
  random?: () => number;
}

export interface DrivenTurn extends TurnOutcome {
  requests: EngineRequest[];
}

/** Runs one turn to its end, answering each request with the next of `answers`. */
export function drive(bot: CompiledBot, state: ConversationState, input: TurnInput, options: DriveOptions = {}): DrivenTurn {
  const answers = [...(options.answers ?? [])];
  const requests: EngineRequest[] = [];
  const generator = runTurn(bot, state, input, { now: options.now ?? (() => 0), random: options.random ?? (() => 0) });
  let step = generator.next();
  while (!step.done) {
    requests.push(step.value);
    const request = step.value;
    const answer = request.kind === 'classify' ? (options.classify?.(request.text) ?? { intents: [] }) : answers.shift();
    if (answer === undefined) throw new Error(`no answer prepared for request ${JSON.stringify(step.value)}`);
    step = generator.next(answer);
  }
  return { ...step.value, requests };
}

/** A conversation: each call runs a turn and keeps the resulting state for the next one. */
export class Conversation {
  state: ConversationState;
  constructor(
    readonly bot: CompiledBot,
    variables: Record<string, string> = {},
    public options: DriveOptions = {},
  ) {
    this.state = newConversationState(bot, variables);
  }
  turn(input: TurnInput, options: DriveOptions = this.options): DrivenTurn {
    const outcome = drive(this.bot, this.state, input, options);
    this.state = outcome.state;
    return outcome;
  }
  start(text?: string): DrivenTurn {
    return this.turn(text === undefined ? { kind: 'start' } : { kind: 'start', text });
  }
  say(text: string): DrivenTurn {
    return this.turn({ kind: 'text', text });
  }
  click(payload: string): DrivenTurn {
    return this.turn({ kind: 'command', payload });
  }
  goTo(behaviour?: string, interaction?: string): DrivenTurn {
    return this.turn({ kind: 'goto', behaviour, interaction });
  }
  get variables(): Record<string, string> {
    return this.state.variables;
  }
  get where(): string | null {
    return this.state.position ? `${this.state.position.behaviour}/${this.state.position.interaction}` : null;
  }
}

/** Starts a conversation on the bot and runs its first (RESET) turn. */
export function started(bot: CompiledBot, variables: Record<string, string> = {}): [Conversation, DrivenTurn] {
  const conversation = new Conversation(bot, variables);
  return [conversation, conversation.start()];
}

/** [Type, Text, Command, TypeDelay] of each top-level part: compact to assert exactly. */
export function summary(outcome: { parts: ReplyPart[] }): [number, string | null, string | null, number][] {
  return outcome.parts.map((p) => [p.Type, p.Text, p.Command, p.TypeDelay]);
}

export function texts(outcome: { parts: ReplyPart[] }): (string | null)[] {
  return outcome.parts.map((p) => p.Text);
}

export function trigger(match: TextTrigger['match'], actions: Action[], extra: Partial<TextTrigger> = {}): TextTrigger {
  return { match, actions, ...extra };
}

/** `{type: 'text', text}` */
export const say = (text: string): Action => ({ type: 'text', text });
/** `{type: 'goTo', mode: 'absolute', ...}` */
export const goTo = (behaviour: string, interaction?: string, extra: Partial<Action> = {}): Action => ({
  type: 'goTo',
  mode: 'absolute',
  behaviour,
  ...(interaction === undefined ? {} : { interaction }),
  ...extra,
});
