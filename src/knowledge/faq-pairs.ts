// An FAQ source's pairs (knowledge.md "FAQ sources"): what a pair may hold, checked before anything
// is written, and the pairs rebuilt from an FAQ's passages (for sources stored before the pairs
// were kept, migration 026). The console edits an FAQ pair by pair and sends them all back: a
// bad pair is refused by its number so the person can find it, and nothing is changed.
import { AppError } from '../shared/errors.js';
import type { FaqPair } from './model.js';

export type { FaqPair };

export const FAQ_LIMITS = Object.freeze({
  /** pairs in one FAQ source: an FAQ a person can still read and edit in the console */
  pairs: 1_000,
  /** characters of a question (its first 200 title its passages) */
  questionChars: 1_000,
  /** characters of an answer (a long one is cut into several passages) */
  answerChars: 10_000,
});

/** The pairs trimmed, or a 400 naming the first bad pair (1-based, as the console numbers them). */
export function checkedFaq(faq: readonly FaqPair[]): FaqPair[] {
  if (faq.length > FAQ_LIMITS.pairs) {
    throw new AppError('LIMIT_EXCEEDED', `An FAQ holds at most ${FAQ_LIMITS.pairs} questions; this one has ${faq.length}.`, { Limit: 'FaqPairs', Max: FAQ_LIMITS.pairs, Field: 'Faq' });
  }
  return faq.map((pair, i) => {
    const question = pair.Question.trim();
    const answer = pair.Answer.trim();
    const n = i + 1;
    if (question === '' && answer === '') throw empty(`Question ${n} and its answer are empty: fill them in or remove the pair.`, `Faq[${i}]`);
    if (question === '') throw empty(`Question ${n} is empty: write the question its answer belongs to.`, `Faq[${i}].Question`);
    if (answer === '') throw empty(`Question ${n} has no answer.`, `Faq[${i}].Answer`);
    if (question.length > FAQ_LIMITS.questionChars) throw tooLong(`Question ${n} has ${question.length} characters`, 'FaqQuestionChars', FAQ_LIMITS.questionChars, `Faq[${i}].Question`);
    if (answer.length > FAQ_LIMITS.answerChars) throw tooLong(`The answer to question ${n} has ${answer.length} characters`, 'FaqAnswerChars', FAQ_LIMITS.answerChars, `Faq[${i}].Answer`);
    return { Question: question, Answer: answer };
  });
}

const empty = (message: string, field: string) => new AppError('INVALID_DOCUMENT', message, { Field: field });
const tooLong = (what: string, limit: string, max: number, field: string) => new AppError('LIMIT_EXCEEDED', `${what}; at most ${max} are kept.`, { Limit: limit, Max: max, Field: field });

/**
 * An FAQ's pairs from its passages in document order (passages.ts's FAQ shape): a pair's first
 * passage is its question, a line break, then its answer, under the question as heading (cut at
 * `headingChars`); a long answer goes on in passages under the same heading.
 */
export function pairsFromPassages(passages: ReadonlyArray<{ heading: string; text: string }>, headingChars: number): FaqPair[] {
  const cut = (title: string) => (title.length <= headingChars ? title : `${title.slice(0, headingChars - 1)}…`);
  const pairs: FaqPair[] = [];
  for (const passage of passages) {
    const end = passage.text.indexOf('\n');
    const firstLine = end < 0 ? passage.text : passage.text.slice(0, end);
    if (end >= 0 && cut(firstLine) === passage.heading) pairs.push({ Question: firstLine, Answer: passage.text.slice(end + 1) });
    else if (pairs.length > 0) pairs[pairs.length - 1].Answer += `\n\n${passage.text}`;
    else pairs.push({ Question: passage.heading, Answer: passage.text });
  }
  return pairs;
}
