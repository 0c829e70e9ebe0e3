// The agent's trace beside the transcript (agents.md "Trace"): under each agent answer a collapsed
// "Steps" disclosure listing the turn's model and tool calls (name, status, ms, tokens, error) and
// the arguments as text. Read from the console's trace route; everything through textContent (the
// arguments are the model's words, never markup). A role that may not read traces gets none.
import type { AgentTraceStep } from '../../src/engine/model-calls.js';
import { api } from './api';
import { el } from './render';
import type { Line } from './types';

/** One agent turn of the trace route's answer (src/conversations/agent-traces.ts TraceList, not imported: its imports reach Node's). */
interface TraceTurn {
  At: string;
  Steps: AgentTraceStep[];
}

/** The latest agent turns of a conversation, newest first; none when they cannot be read. */
export async function readTraces(botId: string, userId: string): Promise<TraceTurn[]> {
  const path = `/bots/${encodeURIComponent(botId)}/conversations/${encodeURIComponent(userId)}/trace?limit=20`;
  return api.call<{ Result: TraceTurn[] }>('GET', path).then(
    (list) => list.Result,
    () => [],
  );
}

/**
 * Which transcript line each turn belongs to: its answer is the last bot line said at or before
 * the trace was written (the trace is written as the turn that said it commits).
 */
export function tracesByLine(lines: Line[], traces: TraceTurn[]): Map<Line, AgentTraceStep[]> {
  const byLine = new Map<Line, AgentTraceStep[]>();
  for (const turn of traces) {
    const at = Date.parse(turn.At);
    const answer = [...lines].reverse().find((l) => l.Direction !== 'USER' && Date.parse(l.At) <= at && !byLine.has(l));
    if (answer) byLine.set(answer, turn.Steps);
  }
  return byLine;
}

let disclosures = 0;

/** A "Steps" button (aria-expanded) and the list it shows and hides. */
export function renderTrace(steps: AgentTraceStep[]): HTMLElement {
  const box = el('div', 'trace');
  const id = `trace-${++disclosures}`;
  const toggle = el('button', 'trace-toggle', `Steps (${steps.length})`);
  toggle.type = 'button';
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', id);
  const list = el('ol', 'trace-steps');
  list.id = id;
  list.hidden = true;
  for (const step of steps) list.append(renderStep(step));
  toggle.addEventListener('click', () => {
    list.hidden = !list.hidden;
    toggle.setAttribute('aria-expanded', String(!list.hidden));
  });
  box.append(toggle, list);
  return box;
}

function renderStep(step: AgentTraceStep): HTMLElement {
  const item = el('li', `trace-step trace-${step.Status === 'OK' ? 'ok' : 'failed'}`);
  const facts = [step.Kind === 'model' ? 'Model call' : `Tool ${step.Name ?? ''}`.trim(), step.Status, `${Math.round(step.Ms)} ms`];
  if (step.Tokens !== undefined) facts.push(`${step.Tokens} tokens`);
  item.append(el('span', 'trace-facts', facts.join(' · ')));
  if (step.Error) item.append(el('span', 'trace-error', step.Error));
  if (step.Arguments) item.append(el('code', 'trace-args', step.Arguments));
  return item;
}
