// `setVariable`: changes one variable (bot-format.md "setVariable modes"). Variables are strings;
// arithmetic modes read both sides as numbers (unparsable = 0) and write them without a trailing `.0`.

import { Type } from 'typebox';
import { defineAction } from '../../action-definition.js';
import { readNumber, writeNumber } from '../../numbers.js';
import { actionSchema, NON_EMPTY_TEXT, TEXT } from '../schema-parts.js';

export const SET_VARIABLE_MODES = ['overwrite', 'append', 'concatenate', 'add', 'subtract', 'multiply', 'divide', 'replace', 'remove', 'clear'] as const;

type Mode = (typeof SET_VARIABLE_MODES)[number];

/** The variable's new value, null to unset it, undefined to leave it as it is. */
export function applyMode(mode: Mode, current: string | undefined, value: string, find: string): string | null | undefined {
  const old = current ?? '';
  switch (mode) {
    case 'overwrite':
      return value;
    case 'append':
      return old + value;
    case 'concatenate':
      return old === '' ? value : `${old};${value}`;
    case 'add':
      return writeNumber(readNumber(old) + readNumber(value));
    case 'subtract':
      return writeNumber(readNumber(old) - readNumber(value));
    case 'multiply':
      return writeNumber(readNumber(old) * readNumber(value));
    case 'divide': {
      const divisor = readNumber(value);
      return divisor === 0 ? undefined : writeNumber(readNumber(old) / divisor);
    }
    case 'replace':
      return find === '' ? undefined : old.split(find).join(value);
    case 'remove':
      return find === '' ? undefined : old.split(find).join('');
    case 'clear':
      return null;
  }
}

export const setVariableAction = defineAction({
  type: 'setVariable',
  needsId: false,
  schema: actionSchema('setVariable', {
    name: NON_EMPTY_TEXT,
    mode: Type.Optional(Type.Enum([...SET_VARIABLE_MODES])),
    value: Type.Optional(TEXT),
    find: Type.Optional(TEXT),
  }),
  *run(action, rc) {
    if (typeof action.name !== 'string' || action.name === '') return;
    const mode = (action.mode ?? 'overwrite') as Mode;
    if (!SET_VARIABLE_MODES.includes(mode)) return;
    const next = applyMode(mode, rc.getVariable(action.name), rc.render(action.value), rc.render(action.find));
    if (next !== undefined) rc.setVariable(action.name, next);
  },
});
