// What an `ai` step asks the model for and how its answer is read (understanding.md "AI steps").
// classify and extract ask for JSON and accept only JSON of the promised shape: anything else is
// an ERROR, never a crash and never a made-up label. Pure: the call itself is the caller's.
import type { AiAnswer, AiStatus, RequestAnswer } from '../../types.js';
import { jsonObjectOf } from '../../../shared/model-json.js';

export const OTHER_LABEL = 'other';

export function classifyInstructions(instructions: string, labels: readonly string[]): string {
  const list = [...labels, OTHER_LABEL].map((l) => JSON.stringify(l)).join(', ');
  return joinInstructions(instructions, `Classify the user's last message. Answer with JSON only, exactly {"label": "<label>"}, where <label> is one of ${list} ("${OTHER_LABEL}" when none fits).`);
}

export function extractInstructions(instructions: string, fields: Readonly<Record<string, string>>): string {
  const lines = Object.entries(fields).map(([name, description]) => `- ${JSON.stringify(name)}: ${description}`);
  return joinInstructions(
    instructions,
    `Extract these fields from the user's last message. Answer with JSON only: one object with exactly these keys, each a string, or null when the message does not give it:\n${lines.join('\n')}`,
  );
}

const joinInstructions = (mine: string, format: string): string => (mine.trim() === '' ? format : `${mine.trim()}\n\n${format}`);

/** The caller's answer, read defensively: anything unexpected is an ERROR. */
export function toAiAnswer(answer: RequestAnswer | undefined): AiAnswer {
  if (typeof answer !== 'object' || answer === null || !('status' in answer)) return { status: 'ERROR', text: '', tokens: 0 };
  const statuses: AiStatus[] = ['OK', 'TIMEOUT', 'ERROR', 'NOT_CONFIGURED'];
  const status = statuses.includes(answer.status as AiStatus) ? (answer.status as AiStatus) : 'ERROR';
  const text = 'text' in answer && typeof answer.text === 'string' ? answer.text : '';
  const tokens = 'tokens' in answer && typeof answer.tokens === 'number' && Number.isFinite(answer.tokens) ? Math.max(0, answer.tokens) : 0;
  return { status, text: status === 'OK' ? text : '', tokens };
}

/** The label of a classify answer, spelled as the bot file spells it; null when it is none of them. */
export function labelOf(text: string, labels: readonly string[]): string | null {
  const label = jsonObjectOf(text)?.label;
  if (typeof label !== 'string') return null;
  const key = label.trim().toLowerCase();
  return [...labels, OTHER_LABEL].find((l) => l.toLowerCase() === key) ?? null;
}

/** The fields of an extract answer (found ones only); null when the answer is not of that shape. */
export function fieldsOf(text: string, names: readonly string[]): Record<string, string> | null {
  const object = jsonObjectOf(text);
  if (object === null) return null;
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = object[name];
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
    else return null;
  }
  return out;
}
