// A turn (bot-format.md "How a turn runs"): (live bot, conversation state, input) → outcome.
// Pure: the state passed in is not modified, I/O is requested by yielding (see types.ts), time and
// randomness come from ctx. A bad bot never makes it throw: at worst the turn ends early.

import type { CompiledBot, CompiledBehaviour, CompiledInteraction, CompiledTrigger } from './compile.js';
import { findBehaviour, findInteraction, resolvePosition, startInteraction, positionOf } from './compile.js';
import { copyState } from './state.js';
import { definitionOf, Turn } from './turn.js';
import type { ApprovalDecision, ConversationState, EngineContext, EngineRequest, RequestAnswer, TurnEnd, TurnGenerator, TurnInput } from './types.js';
import type { Understood } from './nlp/compiled-nlp.js';
import { understand } from './nlp/understand.js';
import { askKnowledge } from './actions/knowledge/index.js';
import { DEFAULT_KNOWLEDGE_TIMEOUT_MS, DEFAULT_MAX_PASSAGES, minScoreOf } from '../shared/knowledge-defaults.js';

type TurnGen<T> = Generator<EngineRequest, T, RequestAnswer>;

export function* runTurn(bot: CompiledBot, state: ConversationState, input: TurnInput, ctx: EngineContext): TurnGenerator {
  const turn = new Turn(bot, copyState(state), ctx);
  let endedBy: TurnEnd;
  try {
    placeInLiveBot(turn);
    endedBy = yield* dispatch(turn, input);
  } catch (error) {
    endedBy = 'done'; // defensive: keep what was produced rather than fail the request
    turn.diagnose(null, null, error);
  }
  const where = resolvePosition(bot, turn.state.position);
  return {
    state: turn.state,
    parts: turn.parts,
    effects: turn.effects,
    enableUserChat: where?.enableUserChat ?? true,
    endedBy,
    apiCalls: turn.apiCalls,
    aiTokens: turn.aiTokens,
    diagnostics: turn.diagnostics,
    matched: turn.matched && { ...turn.matched, to: turn.state.position },
  };
}

function dispatch(turn: Turn, input: TurnInput): TurnGen<TurnEnd> {
  switch (input.kind) {
    case 'start':
      return startConversation(turn, input.text);
    case 'text':
      return userText(turn, input.text);
    case 'command':
      return command(turn, input.payload);
    case 'goto':
      return forcedGoTo(turn, input.behaviour, input.interaction);
    case 'approval':
      return approvalDecided(turn, input.decision);
    default:
      return nothing();
  }
}

/** RESET / new conversation, optionally "skipping initiation" with a first user text. */
function* startConversation(turn: Turn, text: string | undefined): TurnGen<TurnEnd> {
  const { state, bot } = turn;
  state.position = null;
  state.previous = null;
  state.bookmark = null;
  state.waiting = null;
  const start = startInteraction(bot);
  if (start === null) return 'done';
  if (text !== undefined && text.trim() !== '') {
    turn.setVariable('last_user_text', text);
    turn.userText = text;
    // Triggers run "in" the start interaction: their parts carry its names, and it is the position.
    turn.moveTo(start, false);
    const understood = yield* understandText(turn, text);
    const trigger = findTrigger(bot, start.behaviour, text, false, understood);
    if (trigger !== null) return yield* runTrigger(turn, trigger, text, understood);
  }
  return yield* turn.enter(start);
}

function* userText(turn: Turn, text: string): TurnGen<TurnEnd> {
  const { state, bot } = turn;
  turn.setVariable('last_user_text', text);
  turn.userText = text;
  const waiting = state.waiting;
  const location = waiting === null ? undefined : bot.actionsById.get(waiting.actionId);
  const definition = location === undefined ? undefined : definitionOf(location.action);
  const answer = definition?.answer;
  if (waiting !== null && answer === undefined) state.waiting = null; // the live bot lost that input
  // An agent holds the conversation (agents.md): its text reaches no trigger, intent or fallback.
  const held = state.waiting !== null && definition?.holdsConversation === true;

  const understood = held ? null : yield* understandText(turn, text);
  const trigger = held ? null : findTrigger(bot, turn.currentBehaviour(), text, state.waiting !== null, understood);
  if (trigger !== null) return yield* runTrigger(turn, trigger, text, understood);

  const bestIntent = understood?.best ? { name: understood.best.intent, score: twoDecimals(understood.best.score) } : null;
  const untriggered = (kind: 'input' | 'knowledge' | 'fallback') => (turn.matched = { kind, name: '', score: null, trigger: null, bestIntent, to: null });
  if (state.waiting !== null && location !== undefined && answer !== undefined) {
    untriggered('input');
    if (location.interaction !== null) turn.moveTo(location.interaction, false);
    state.waiting = waiting; // moveTo clears it; the input's own answer decides what happens to it
    return yield* turn.follow(yield* turn.safely(location.action, null, () => answer(location.action, turn, text, waiting!)));
  }
  // knowledge.md: a text nothing took is asked of the knowledge first; answered, it is not missed.
  if (bot.knowledge?.beforeFallback === true) {
    const status = yield* askKnowledge(turn, {
      question: text,
      instructions: turn.render(bot.knowledge.instructions),
      maxPassages: DEFAULT_MAX_PASSAGES,
      timeoutMs: Math.max(1, Math.min(DEFAULT_KNOWLEDGE_TIMEOUT_MS, Math.floor(turn.timeLeftMs()))),
      minScore: minScoreOf(bot.knowledge.minScore),
      variable: null,
      say: true,
      cite: true,
    });
    if (status === 'ANSWERED') {
      untriggered('knowledge');
      return 'done';
    }
  }
  // Missed texts (understanding.md): where the conversation stood is where the designer would
  // teach the bot this text.
  const where = state.position;
  const fallback = fallbackOf(turn);
  if (fallback !== null) {
    const at = where ?? { behaviour: fallback.behaviour.name, interaction: fallback.name };
    turn.effect({ kind: 'missed', text, behaviour: at.behaviour, interaction: at.interaction });
  }
  untriggered('fallback');
  return yield* runFallback(turn);
}

/** A bot without an `nlp` section classifies nothing: no request, no variables. */
function* understandText(turn: Turn, text: string): TurnGen<Understood | null> {
  const nlp = turn.bot.nlp;
  if (nlp === null) return null;
  // The model's answer is data like any other: a classifier that fails must not fail the turn.
  try {
    return yield* understand(turn, nlp, text);
  } catch (error) {
    turn.diagnose(null, null, error);
    return null;
  }
}

/** A button payload: the button's onClick; a payload the live bot does not know runs the fallback. */
function* command(turn: Turn, payload: string): TurnGen<TurnEnd> {
  const agent = turn.state.waiting?.agent === true ? turn.state.waiting : null;
  const heldAt = turn.state.position;
  turn.state.waiting = null;
  const location = turn.bot.actionsById.get(payload);
  const click = location === undefined ? undefined : definitionOf(location.action)?.click;
  if (location === undefined || click === undefined) return yield* runFallback(turn);
  // The onClick runs in the interaction that holds the button (it may be an older one).
  if (location.interaction !== null) turn.moveTo(location.interaction, false);
  const ended = yield* turn.follow(yield* turn.safely(location.action, null, () => click(location.action, turn, location.container)));
  // agents.md: a click leaves the agent only when its operations move the conversation
  if (agent !== null && ended === 'done' && turn.state.waiting === null && samePlace(turn.state.position, heldAt)) turn.state.waiting = agent;
  return ended;
}

function samePlace(a: { behaviour: string; interaction: string } | null, b: { behaviour: string; interaction: string } | null): boolean {
  return a !== null && b !== null && a.behaviour.toLowerCase() === b.behaviour.toLowerCase() && a.interaction.toLowerCase() === b.interaction.toLowerCase();
}

/** A decided approval goes to the agent that waits on that very call; otherwise it changes nothing. */
function* approvalDecided(turn: Turn, decision: ApprovalDecision): TurnGen<TurnEnd> {
  const waiting = turn.state.waiting;
  const location = waiting?.approval === decision.callId ? turn.bot.actionsById.get(waiting.actionId) : undefined;
  const resume = location === undefined ? undefined : definitionOf(location.action)?.resume;
  if (waiting === null || location === undefined || resume === undefined) return 'done';
  if (location.interaction !== null) turn.moveTo(location.interaction, false);
  turn.state.waiting = waiting; // moveTo clears it; the agent decides what happens to it
  return yield* turn.follow(yield* turn.safely(location.action, null, () => resume(location.action, turn, decision)));
}

/** Forced position: unknown names go to the start interaction of the start behaviour. */
function* forcedGoTo(turn: Turn, behaviourName: string | undefined, interactionName: string | undefined): TurnGen<TurnEnd> {
  turn.state.waiting = null;
  const behaviour = behaviourName ? findBehaviour(turn.bot, behaviourName) : turn.currentBehaviour();
  let target: CompiledInteraction | null = null;
  if (behaviour !== null) target = interactionName ? findInteraction(behaviour, interactionName) : behaviour.start;
  target ??= startInteraction(turn.bot);
  if (target === null) return 'done';
  return yield* turn.enter(target, true);
}

/** Fallback interaction of the current behaviour, else of the start behaviour. */
function fallbackOf(turn: Turn): CompiledInteraction | null {
  return turn.currentBehaviour()?.fallback ?? turn.bot.startBehaviour?.fallback ?? null;
}

function* runFallback(turn: Turn): TurnGen<TurnEnd> {
  const fallback = fallbackOf(turn);
  if (fallback === null) return 'done';
  return yield* turn.enter(fallback);
}

/** Behaviour triggers first, then the bot's; while an input waits only `whileWaiting` ones count. */
function findTrigger(bot: CompiledBot, behaviour: CompiledBehaviour | null, text: string, waiting: boolean, understood: Understood | null): CompiledTrigger | null {
  for (const list of [behaviour?.triggers ?? [], bot.triggers]) {
    for (const trigger of list) {
      if (waiting && !trigger.whileWaiting) continue;
      if (trigger.matches(text, understood)) return trigger;
    }
  }
  return null;
}

function* runTrigger(turn: Turn, trigger: CompiledTrigger, text: string, understood: Understood | null): TurnGen<TurnEnd> {
  turn.matched = {
    kind: trigger.kind,
    name: trigger.label,
    score: trigger.kind !== 'intent' || understood === null ? null : intentScore(understood),
    trigger: { behaviour: trigger.owner, index: trigger.index },
    bestIntent: null,
    to: null,
  };
  if (trigger.variable !== null) turn.setVariable(trigger.variable, text.trim());
  return yield* turn.follow(yield* turn.runActions(trigger.actions));
}

/** The score an intent trigger fired at: the AI's choice, or the model's best (which it matched). */
function intentScore(understood: Understood): number | 'ai' | null {
  if (understood.score === 'ai') return 'ai';
  return understood.best === null ? null : twoDecimals(understood.best.score);
}

/** As last_intent_score shows it (understanding.md): two decimals. */
const twoDecimals = (score: number) => Math.round(score * 100) / 100;

/** A publish takes effect at the same names; where those are gone, at the start interaction. */
function placeInLiveBot(turn: Turn): void {
  const { state, bot } = turn;
  if (state.position === null) return;
  const here = resolvePosition(bot, state.position) ?? startInteraction(bot);
  turn.here = here;
  state.position = here === null ? null : positionOf(here);
}

/** The turn's working copy: the caller's state is never modified (it was read by stateFromStored). */
// biome-ignore lint/correctness/useYield: a step of the same generator type as the others that has nothing to ask
function* nothing(): TurnGen<TurnEnd> {
  return 'done';
}
