// `input`: asks a question (Type 6) and halts the turn until the user's next text (rule 6).
// A fitting answer is stored in `variable` and `onSuccess` runs; otherwise a wrong-answer text and
// the question again, until the `maxWrongAnswers`-th wrong answer gives up (`onGiveUp`, else
// `onSuccess`, with the variable unset). 0 or absent = never give up.

import type { Action } from '../../bot-file.js';
import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { regexProblem } from '../../matching.js';
import type { RunContext } from '../../run-context.js';
import { isObj } from '../../walk.js';
import { numberField, stringList } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import { EXPECT_KINDS, fitsExpect } from './expect.js';
import { entityNamed } from '../../nlp/compiled-nlp.js';
import { findEntity } from '../../nlp/entities.js';
import { PartType } from '../../parts.js';

export const DEFAULT_WRONG_ANSWER = "Sorry, I didn't get that.";

const expectSchema = Type.Union([
  Type.Enum([...EXPECT_KINDS]),
  Type.String({ minLength: 1, description: 'alternatives, e.g. "yes|no|maybe"' }),
  Type.Object({ regex: Type.String() }, { additionalProperties: false }),
  Type.Object({ entity: Type.String({ minLength: 1, description: 'an entity of the nlp section: its canonical value is stored' }) }, { additionalProperties: false }),
]);

export const inputAction = defineAction({
  type: 'input',
  needsId: true,
  schema: actionSchema('input', {
    question: Type.Optional(TEXT),
    expect: expectSchema,
    variable: NON_EMPTY_TEXT,
    maxWrongAnswers: Type.Optional(Type.Integer({ minimum: 0 })),
    wrongAnswerTexts: Type.Optional(Type.Array(TEXT)),
    onSuccess: OPERATIONS,
    onGiveUp: Type.Optional(OPERATIONS),
  }),
  /** Save-time rule: a regex `expect` must be one the engine can run (linear time, issue 11). */
  check(action, context) {
    const { expect } = action as Action;
    if (isObj(expect) && typeof expect.entity === 'string' && context.hasEntity(expect.entity) === false) {
      return [{ path: ['expect', 'entity'], message: `unknown entity '${expect.entity}': declare it in nlp.entities` }];
    }
    const error = isObj(expect) && typeof expect.regex === 'string' ? regexProblem(expect.regex) : null;
    return error === null ? [] : [{ path: ['expect', 'regex'], message: error }];
  },
  *run(action, rc) {
    // Without an id the answer could never find its way back to this action: skip it.
    if (typeof action.id !== 'string' || action.id === '' || typeof action.variable !== 'string') return;
    ask(action, rc);
    rc.state.waiting = { actionId: action.id, wrongAnswers: 0 };
    return { kind: 'wait' };
  },
  *answer(action, rc, text, waiting) {
    const variable = typeof action.variable === 'string' ? action.variable : null;
    const fitting = answerOf(action.expect, rc, text);
    if (fitting !== null) {
      rc.state.waiting = null;
      if (variable !== null) rc.setVariable(variable, fitting);
      return yield* rc.runActions(action.onSuccess);
    }
    const wrongAnswers = waiting.wrongAnswers + 1;
    const limit = numberField(action.maxWrongAnswers) ?? 0;
    if (limit > 0 && wrongAnswers >= limit) {
      rc.state.waiting = null;
      if (variable !== null) rc.setVariable(variable, null);
      return yield* rc.runActions(Array.isArray(action.onGiveUp) ? action.onGiveUp : action.onSuccess);
    }
    const wrongTexts = stringList(action.wrongAnswerTexts);
    rc.say(rc.part(PartType.Text, { Text: rc.render(rc.pick(wrongTexts) ?? DEFAULT_WRONG_ANSWER) }));
    ask(action, rc);
    rc.state.waiting = { actionId: waiting.actionId, wrongAnswers };
    return { kind: 'wait' };
  },
});

/** What the answer stores when it fits: the trimmed text, or an expected entity's canonical value. */
function answerOf(expect: unknown, rc: RunContext, text: string): string | null {
  if (isObj(expect) && typeof expect.entity === 'string') {
    const entity = rc.bot.nlp === null ? undefined : entityNamed(rc.bot.nlp, expect.entity);
    return entity === undefined ? null : (findEntity(entity, text)?.value ?? null);
  }
  return fitsExpect(expect, text) ? text.trim() : null;
}

function ask(action: Action, rc: RunContext): void {
  if (typeof action.question === 'string') rc.say(rc.part(PartType.Question, { Text: rc.render(action.question) }));
}
