// What understanding free text costs (issue 14): training a model of 50 intents × 10 examples (it
// runs when a version is published), and what classifying adds to a turn (it runs on every user
// text of a bot with an `nlp` section; a bot without one classifies nothing). In-process, no
// server: these are CPU costs. Runs on its own (`npx tsx bench/understanding.ts`) or from run.ts.
import type { BotFile, NlpSection } from '../src/engine/bot-file.js';
import { compileBot } from '../src/engine/compile.js';
import { runTurn } from '../src/engine/run-turn.js';
import { newConversationState } from '../src/engine/state.js';
import type { ClassifyAnswer } from '../src/engine/types.js';
import { loadClassifier, trainModel } from '../src/understanding/model.js';

const WORDS = (
  'order parcel refund invoice account password delivery store price discount return size colour shirt shoe jacket ' +
  'payment card bank voucher gift newsletter address phone email warranty repair battery screen cable charger app login ' +
  'subscription plan upgrade cancel pause member points coupon stock branch manager complaint feedback review rating'
).split(' ');
const VERBS = ['where is my', 'I want to change my', 'how do I get a', 'can you help with my', 'problem with the', 'tell me about the', 'I need a new', 'check my', 'what about my', 'update the'];

/** 50 intents of 10 examples each; `salt` makes the examples new, so nothing is remembered between runs. */
export function benchSection(salt: string, intents = 50, examples = 10): NlpSection {
  return {
    intents: Array.from({ length: intents }, (_, i) => ({
      name: `intent_${i}`,
      examples: Array.from({ length: examples }, (_, j) => `${VERBS[j % VERBS.length]} ${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + j) % WORDS.length]} ${salt}${i}`),
    })),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface UnderstandingFigures {
  trainingMs: number;
  classifyUs: number;
  turnWithoutNlpUs: number;
  turnWithNlpUs: number;
}

export async function measureUnderstanding(): Promise<UnderstandingFigures> {
  const trainings: number[] = [];
  let model = '';
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    model = (await trainModel(benchSection(`r${run}x${Date.now()}`)))!;
    trainings.push(performance.now() - started);
  }
  const classifier = await loadClassifier(model);
  const texts = Array.from({ length: 500 }, (_, i) => `${VERBS[i % VERBS.length]} ${WORDS[(i * 3) % WORDS.length]} please ${i}`);
  for (const t of texts.slice(0, 50)) await classifier.classify(t); // warm-up
  const started = performance.now();
  const answers: ClassifyAnswer[] = [];
  for (const t of texts) answers.push(await classifier.classify(t));
  const classifyUs = ((performance.now() - started) * 1000) / texts.length;

  const file = (nlp?: NlpSection): BotFile => ({
    format: 'colloquy/bot@1',
    name: 'bench',
    triggers: [{ intent: 'intent_3', actions: [{ type: 'text', text: 'three' }] }].filter(() => nlp !== undefined),
    behaviours: [
      {
        name: 'Main',
        start: true,
        interactions: [
          { name: 'Start', start: true, actions: [] },
          { name: 'Fallback', fallback: true, actions: [{ type: 'text', text: 'Sorry?' }] },
        ],
      },
    ],
    ...(nlp ? { nlp } : {}),
  });
  const turnUs = (bot: BotFile, classify: boolean) => {
    const compiled = compileBot(bot);
    const state = newConversationState(compiled);
    const times: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      const t0 = performance.now();
      const turn = runTurn(compiled, state, { kind: 'text', text: texts[i] }, { now: Date.now, random: Math.random });
      let step = turn.next();
      while (!step.done) step = turn.next(classify ? answers[i] : { intents: [] });
      times.push((performance.now() - t0) * 1000);
    }
    return median(times);
  };
  const turnWithoutNlpUs = turnUs(file(), false);
  // The engine's own work with scores in hand; the classification itself is added below.
  const turnWithNlpUs = turnUs(file(benchSection('turn')), true) + classifyUs;
  return { trainingMs: median(trainings), classifyUs, turnWithoutNlpUs, turnWithNlpUs };
}

export function describeUnderstanding(f: UnderstandingFigures): string {
  return [
    `training 50 intents × 10 examples (at publish): ${f.trainingMs.toFixed(0)} ms (median of 3)`,
    `classifying one user text: ${(f.classifyUs / 1000).toFixed(2)} ms (mean of 500)`,
    `engine turn to the fallback without nlp: ${(f.turnWithoutNlpUs / 1000).toFixed(3)} ms; with nlp (classification + entities + intent triggers): ${(f.turnWithNlpUs / 1000).toFixed(3)} ms`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureUnderstanding().then((f) => process.stdout.write(`${describeUnderstanding(f)}\n`));
}
