// `input`: asks a question (Type 6) and halts the turn until the user's next text (rule 6).
// A fitting answer is stored in `variable` and `onSuccess` runs; otherwise a wrong-answer text and
// the question again, until the `maxWrongAnswers`-th wrong answer gives up (`onGiveUp`, else
// `onSuccess`, with the variable unset). 0 or absent = never give up.

import type { Action } from '../../../bots/bot-file.js';
import type { ActionDefinition } from '../../action-definition.js';
import type { RunContext } from '../../run-context.js';
import { numberField, stringList } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import { EXPECT_KINDS, fitsExpect } from './expect.js';
import { PartType } from '../../parts.js';

export const DEFAULT_WRONG_ANSWER = "Sorry, I didn't get that.";

const expectSchema = {
  anyOf: [
    { enum: [...EXPECT_KINDS] },
    { type: 'string', minLength: 1, description: 'alternatives, e.g. "yes|no|maybe"' },
    { type: 'object', additionalProperties: false, required: ['regex'], properties: { regex: { type: 'string' } } },
  ],
};

export const inputAction: ActionDefinition = {
  type: 'input',
  needsId: true,
  schema: actionSchema(
    'input',
    {
      question: TEXT,
      expect: expectSchema,
      variable: NON_EMPTY_TEXT,
      maxWrongAnswers: { type: 'integer', minimum: 0 },
      wrongAnswerTexts: { type: 'array', items: TEXT },
      onSuccess: OPERATIONS,
      onGiveUp: OPERATIONS,
    },
    ['expect', 'variable', 'onSuccess'],
  ),
  *run(action, rc) {
    // Without an id the answer could never find its way back to this action: skip it.
    if (typeof action.id !== 'string' || action.id === '' || typeof action.variable !== 'string') return;
    ask(action, rc);
    rc.state.waiting = { actionId: action.id, wrongAnswers: 0 };
    return { kind: 'wait' };
  },
  *answer(action, rc, text, waiting) {
    const variable = typeof action.variable === 'string' ? action.variable : null;
    if (fitsExpect(action.expect, text)) {
      rc.state.waiting = null;
      if (variable !== null) rc.setVariable(variable, text.trim());
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
};

function ask(action: Action, rc: RunContext): void {
  if (typeof action.question === 'string') rc.say(rc.part(PartType.Question, { Text: rc.render(action.question) }));
}
