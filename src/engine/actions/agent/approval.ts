// Approvals (agents.md "Tools"): a call of an `approval: true` tool is not made. The agent says the
// tool's approvalMessage, the turn so far is handed to the caller to keep with the pending approval
// (an effect), and the conversation waits: user texts no longer reach the model. When a colleague
// decides, the caller hands the decision back (TurnInput `approval`) and loop.ts goes on from there.
import { cutToBytes, utf8Bytes } from '../../../shared/utf8.js';
import { PartType } from '../../parts.js';
import type { Action } from '../../bot-file.js';
import type { Flow, RunContext } from '../../run-context.js';
import type { AgentMessage, AgentToolCall, AgentTraceStep } from '../../types.js';

export const DEFAULT_APPROVAL_MESSAGE = 'One moment, a colleague must approve this.';
/** The turn so far, as kept with a pending approval; past it the largest tool results are dropped (docs/limits.md). */
export const MAX_KEPT_TURN_BYTES = 64 * 1024;
const DROPPED = JSON.stringify({ error: 'this result was too long to keep while a call waited for an approval' });

/** The agent stops at a call that needs a colleague's approval and waits. */
export function askApproval(action: Action, rc: RunContext, call: AgentToolCall, args: Record<string, unknown>, approvalMessage: unknown, messages: AgentMessage[]): Flow {
  // the user's text is in the stored history by the time the agent goes on: not repeated
  const kept = messages[0]?.role === 'user' ? messages.slice(1) : [...messages];
  rc.effect({ kind: 'approvalAsked', callId: call.id, tool: call.name, arguments: args, messages: bounded(kept) });
  const said = typeof approvalMessage === 'string' && approvalMessage.trim() !== '' ? rc.render(approvalMessage) : DEFAULT_APPROVAL_MESSAGE;
  rc.say(rc.part(PartType.Text, { Text: said }));
  rc.state.waiting = { actionId: String(action.id), wrongAnswers: 0, agent: true, approval: call.id };
  return { kind: 'wait' };
}

/** The model reads that a colleague refused the call, and why when they said. */
export function refusal(name: string, reason: string, trace: AgentTraceStep[]): string {
  const why = cutToBytes(reason.trim(), 1024);
  trace.push({ Kind: 'tool', Name: name, Status: 'REJECTED', Ms: 0, ...(why !== '' ? { Error: why } : {}) });
  return JSON.stringify({ error: 'a colleague refused this call', ...(why !== '' ? { reason: why } : {}) });
}

function bounded(messages: AgentMessage[]): AgentMessage[] {
  const out = messages.map((m) => ({ ...m }));
  const size = () => utf8Bytes(JSON.stringify(out));
  while (size() > MAX_KEPT_TURN_BYTES) {
    let largest = -1;
    for (const [i, m] of out.entries()) if (m.role === 'tool' && m.content !== DROPPED && (largest < 0 || m.content.length > (out[largest] as { content: string }).content.length)) largest = i;
    if (largest < 0) break;
    out[largest] = { ...(out[largest] as Extract<AgentMessage, { role: 'tool' }>), content: DROPPED };
  }
  return out;
}
