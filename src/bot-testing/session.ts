// A conversation a test talks to: the engine in this process (EngineSession) or a live bot on a
// server (ServerSession, server-session.ts). The steps (steps.ts) see only this interface.
import { driveTurn } from '../conversations/drive-turn.js';
import { newConversationState } from '../engine/state.js';
import type { ConversationState, ReplyPart, TurnInput } from '../engine/types.js';
import { isoWithOffset } from '../shared/clock.js';
import type { BotUnderTest } from './bot-under-test.js';
import type { Coverage } from './coverage.js';
import { stubHandlers } from './stubs.js';
import type { TestCase } from './test-file.js';

export interface ChatSession {
  start(): Promise<ReplyPart[]>;
  say(text: string): Promise<ReplyPart[]>;
  /** presses the button whose payload is `command` */
  press(command: string): Promise<ReplyPart[]>;
  /** "Behaviour/Interaction", or null before the first interaction */
  position(): Promise<string | null>;
  variables(): Promise<Record<string, string>>;
  /** whether the conversation waits for a person or is with one (ControlType 1 or 2) */
  handedOver(): Promise<boolean>;
}

/** A small, fast PRNG (mulberry32): the same seed gives the same `texts` choices on every run. */
export function seededRandom(seedText: string): () => number {
  let seed = 2166136261;
  for (let i = 0; i < seedText.length; i++) seed = Math.imul(seed ^ seedText.charCodeAt(i), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TEST_USER_ID = 'colloquy-test';

/** The engine, driven as the server drives it (conversations/drive-turn.ts), on a fixed clock. */
export class EngineSession implements ChatSession {
  private state: ConversationState;
  /** the control state the flow's `operator` actions left: 0 bot, 1 requested, 2 taken over */
  private control = 0;
  private readonly handlers;
  private readonly context;

  constructor(
    private readonly bot: BotUnderTest,
    test: TestCase,
    private readonly coverage: Coverage,
  ) {
    const system = { user_id: TEST_USER_ID, channel: 'custom', creation_date: isoWithOffset(test.now) };
    this.state = newConversationState(bot.compiled, system);
    Object.assign(this.state.variables, test.variables);
    this.handlers = stubHandlers(test.stubs, bot.classify);
    this.context = { now: () => test.now, random: seededRandom(test.name) };
  }

  start() {
    return this.turn({ kind: 'start' });
  }
  say(text: string) {
    // Taken over: the text goes to the operator and runs no flow (api.md section 3 rule 7).
    return this.control === 2 ? Promise.resolve([]) : this.turn({ kind: 'text', text });
  }
  press(command: string) {
    this.coverage.pressed(this.bot, command);
    return this.control === 2 ? Promise.resolve([]) : this.turn({ kind: 'command', payload: command });
  }
  async position() {
    const p = this.state.position;
    return p === null ? null : `${p.behaviour}/${p.interaction}`;
  }
  async variables() {
    return this.state.variables;
  }
  async handedOver() {
    return this.control !== 0;
  }

  private async turn(input: TurnInput): Promise<ReplyPart[]> {
    const outcome = await driveTurn(this.bot.compiled, this.state, input, this.context, this.handlers, new Map());
    this.state = outcome.state;
    for (const effect of outcome.effects) {
      if (effect.kind === 'control') this.control = effect.mode === 'request' ? 1 : effect.mode === 'takeover' ? 2 : 0;
    }
    return outcome.parts;
  }
}
