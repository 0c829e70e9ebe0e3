// What a user text means to a bot with an `nlp` section (understanding.md): the trained model's
// scores come from the caller (a `classify` request: the engine stays pure, and the memo of a
// retried turn answers it again), the AI fallback asks the provider when no intent reached the
// threshold, and entities are found here. The result sets last_intent, last_intent_score and
// entity_<name>, and is what intent triggers are checked against.
import type { AiRequest, ClassifyAnswer, EngineRequest, RequestAnswer } from '../types.js';
import type { RunContext } from '../run-context.js';
import { toAiAnswer } from '../actions/ai/answers.js';
import { jsonObjectOf } from '../../shared/model-json.js';
import type { CompiledNlp, Understood } from './compiled-nlp.js';
import { findEntities } from './entities.js';

const AI_FALLBACK_TIMEOUT_MS = 10_000;
const NONE = 'none';

type Gen<T> = Generator<EngineRequest, T, RequestAnswer>;

export function* understand(rc: RunContext, nlp: CompiledNlp, text: string): Gen<Understood> {
  // Entities alone need no model.
  const scores: ClassifyAnswer = nlp.intents.length === 0 ? { intents: [] } : toClassifyAnswer(yield* rc.askOutside({ kind: 'classify', text }));
  rc.countAiTokens(scores.tokens ?? 0);
  const best = scores.intents[0] ?? null;
  let understood: Understood = best !== null && best.score >= nlp.threshold ? { intent: best.intent, score: best.score, best } : { intent: null, score: null, best };
  if (understood.intent === null && nlp.aiFallback && nlp.intents.length > 0) {
    const chosen = yield* aiFallback(rc, nlp, text);
    if (chosen !== null) understood = { intent: chosen, score: 'ai', best };
  }
  rc.setVariable('last_intent', understood.intent ?? '');
  rc.setVariable('last_intent_score', understood.score === null ? '' : understood.score === 'ai' ? 'ai' : understood.score.toFixed(2));
  // Slot filling: an entity keeps its value until a later text names it again.
  for (const entity of findEntities(nlp, text)) rc.setVariable(`entity_${entity.name}`, entity.value);
  return understood;
}

/** The model's choice among the intent names, or null ("none", an error, an unknown name). */
function* aiFallback(rc: RunContext, nlp: CompiledNlp, text: string): Gen<string | null> {
  const request: AiRequest = {
    kind: 'ai',
    instructions: fallbackInstructions(nlp),
    input: text,
    history: 0,
    maxTokens: 50,
    temperature: 0,
    timeoutMs: AI_FALLBACK_TIMEOUT_MS,
  };
  const answer = toAiAnswer(yield* rc.askOutside(request));
  // It is an AI call like any (usage), but it leaves ai_status alone: that belongs to `ai` steps.
  if (answer.status !== 'NOT_CONFIGURED') rc.countApiCall();
  rc.countAiTokens(answer.tokens);
  if (answer.status !== 'OK') return null;
  const intent = jsonObjectOf(answer.text)?.intent;
  if (typeof intent !== 'string' || intent.trim().toLowerCase() === NONE) return null;
  const key = intent.trim().toLowerCase();
  return nlp.intents.find((i) => i.name.toLowerCase() === key)?.name ?? null;
}

const MAX_EXAMPLES_SHOWN = 10;

function fallbackInstructions(nlp: CompiledNlp): string {
  const lines = nlp.intents.map(
    (i) =>
      `- ${JSON.stringify(i.name)}, e.g. ${i.examples
        .slice(0, MAX_EXAMPLES_SHOWN)
        .map((e) => JSON.stringify(e))
        .join(', ')}`,
  );
  return [
    "Which of these intents does the user's message express?",
    ...lines,
    `Answer with JSON only, exactly {"intent": "<name>"}, where <name> is one of the intent names above, or "${NONE}" when none fits.`,
  ].join('\n');
}

/** The caller's scores, read defensively: anything unexpected is "no intent". */
function toClassifyAnswer(answer: RequestAnswer | undefined): ClassifyAnswer {
  if (typeof answer !== 'object' || answer === null || !('intents' in answer) || !Array.isArray(answer.intents)) return { intents: [] };
  const intents = answer.intents.filter((i) => typeof i?.intent === 'string' && typeof i.score === 'number' && Number.isFinite(i.score)).sort((a, b) => b.score - a.score);
  const tokens = 'tokens' in answer && typeof answer.tokens === 'number' ? answer.tokens : 0;
  return { intents, tokens };
}
