// The conditions of `variableSwitch` (bot-format.md "variableSwitch criteria").
// Text criteria ignore case, and a `;`-joined value (see setVariable `concatenate`) meets one when
// the whole value or any piece does. Numeric criteria read unparsable values as 0.

import { alternativesOf, regexFinds } from '../../matching.js';
import { readNumber } from '../../numbers.js';

export const CRITERIA = ['equals', 'notEquals', 'contains', 'startsWith', 'endsWith', 'matches', 'empty', 'notEmpty', 'greaterThan', 'lessThan', 'between'] as const;

export type Criterion = (typeof CRITERIA)[number];

export function isCriterion(value: unknown): value is Criterion {
  return typeof value === 'string' && (CRITERIA as readonly string[]).includes(value);
}

/** Does the variable's value (undefined = unset) meet the criterion? */
export function meets(criterion: Criterion, variable: string | undefined, value: string, value2: string): boolean {
  const text = variable ?? '';
  switch (criterion) {
    case 'equals':
      return anyPiece(text, (piece) => equalsAlternative(piece, value));
    // The negation of `equals`: "a;b" notEquals "a" is false, the list does hold "a".
    case 'notEquals':
      return !anyPiece(text, (piece) => equalsAlternative(piece, value));
    case 'contains':
      return anyPiece(text, (piece) => piece.toLowerCase().includes(value.toLowerCase()));
    case 'startsWith':
      return anyPiece(text, (piece) => piece.toLowerCase().startsWith(value.toLowerCase()));
    case 'endsWith':
      return anyPiece(text, (piece) => piece.toLowerCase().endsWith(value.toLowerCase()));
    case 'matches':
      return anyPiece(text, (piece) => regexFinds(value, piece));
    case 'empty':
      return text.trim() === '';
    case 'notEmpty':
      return text.trim() !== '';
    case 'greaterThan':
      return readNumber(text) > readNumber(value);
    case 'lessThan':
      return readNumber(text) < readNumber(value);
    case 'between': {
      const x = readNumber(text);
      return readNumber(value) <= x && x <= readNumber(value2);
    }
  }
}

function anyPiece(text: string, test: (piece: string) => boolean): boolean {
  if (test(text)) return true;
  return text.includes(';') && text.split(';').some(test);
}

/** `value` may list alternatives `a|b`; comparison ignores case and surrounding spaces. */
function equalsAlternative(piece: string, value: string): boolean {
  const wanted = piece.trim().toLowerCase();
  const alternatives = alternativesOf(value);
  // an empty `value` compares with the empty string (alternativesOf drops empty pieces)
  return alternatives.length === 0 ? wanted === '' : alternatives.includes(wanted);
}
