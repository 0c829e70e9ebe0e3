// What a bot's `nlp` section may cost the server (issue 22): the totals a JSON Schema cannot count.
// Training time and memory grow with the number of intents times the words of all examples, and a
// synonym entity is held in memory by every node that runs the bot, so both are capped at save
// time (NLP_LIMITS, docs/limits.md). Each total is reported once, at the first item that crosses it.
import { NLP_LIMITS } from '../understanding/languages.js';
import { isObj, type Segment } from './walk.js';

/** A problem of the nlp section at its JSON path (INVALID_BOT); the costs' and the rules' alike. */
export interface NlpProblem {
  path: Segment[];
  message: string;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Counts toward a cap; reports the first path that crosses it. */
class Total {
  private sum = 0;
  private reported = false;

  constructor(
    private readonly max: number,
    private readonly message: string,
    private readonly out: NlpProblem[],
  ) {}

  add(amount: number, path: Segment[]): void {
    this.sum += amount;
    if (this.sum <= this.max || this.reported) return;
    this.reported = true;
    this.out.push({ path, message: this.message });
  }
}

export function nlpCostProblems(nlp: Record<string, unknown>, out: NlpProblem[]): void {
  if (Array.isArray(nlp.intents)) intentCosts(nlp.intents, out);
  if (Array.isArray(nlp.entities)) entityCosts(nlp.entities, out);
}

function intentCosts(intents: unknown[], out: NlpProblem[]): void {
  const examples = new Total(NLP_LIMITS.examples, `too many examples: at most ${count(NLP_LIMITS.examples)} for all intents together`, out);
  const chars = new Total(NLP_LIMITS.exampleChars, `too much example text: at most ${count(NLP_LIMITS.exampleChars)} characters for all examples together`, out);
  intents.forEach((intent, i) => {
    if (!isObj(intent) || !Array.isArray(intent.examples)) return;
    intent.examples.forEach((example, j) => {
      if (typeof example !== 'string') return;
      const path: Segment[] = ['nlp', 'intents', i, 'examples', j];
      examples.add(1, path);
      chars.add(example.length, path);
    });
  });
}

function entityCosts(entities: unknown[], out: NlpProblem[]): void {
  const chars = new Total(NLP_LIMITS.entityChars, `too much entity text: at most ${count(NLP_LIMITS.entityChars)} characters for all values and spellings of all entities together`, out);
  entities.forEach((entity, i) => {
    if (!isObj(entity) || !isObj(entity.values)) return;
    const spellings = new Total(NLP_LIMITS.spellingsPerEntity, `too many spellings: at most ${count(NLP_LIMITS.spellingsPerEntity)} for one entity, its values included`, out);
    for (const [value, list] of Object.entries(entity.values)) {
      const path: Segment[] = ['nlp', 'entities', i, 'values', value];
      // The canonical value is a spelling of itself.
      if (value.length > NLP_LIMITS.spellingLength) out.push({ path, message: `a value is at most ${NLP_LIMITS.spellingLength} characters` });
      spellings.add(1, path);
      chars.add(value.length, path);
      if (!Array.isArray(list)) continue;
      list.forEach((spelling, j) => {
        if (typeof spelling !== 'string') return;
        spellings.add(1, [...path, j]);
        chars.add(spelling.length, [...path, j]);
      });
    }
  });
}
