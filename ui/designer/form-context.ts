// What every generated form needs besides its own value: the schema, the bot (for target
// pickers) and the problems by JSONPath.
import { createContext, useContext } from 'react';
import type { BotFile } from './model';
import type { Schema } from './schema';

export interface FormContext {
  root: Schema;
  actionTypes: string[];
  bot: BotFile;
  problems: Map<string, string>;
}

export const Form = createContext<FormContext | null>(null);
export const useForm = (): FormContext => useContext(Form)!;

/** A DOM id for a JSONPath (ids may not hold brackets and quotes usefully). */
export const fieldId = (path: string) => `f${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
