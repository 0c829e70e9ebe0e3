// The traces of agent turns (migration 030, agents.md "Trace"): written with the turn that made
// them, read newest first for the trace API and the console. Steps are stored as the engine gave
// them (JSON, each argument and result already cut to 2 KB); a conversation keeps its newest `keep`.
import type { AgentTraceRecord } from '../conversations/model.js';
import type { AgentTraceStep } from '../engine/types.js';
import type { Queryable } from './driver.js';

interface TraceRow {
  at: number | string;
  steps: string;
}

function stepsOf(json: string): AgentTraceStep[] {
  try {
    const steps = JSON.parse(json);
    return Array.isArray(steps) ? steps : [];
  } catch {
    return [];
  }
}

export function agentTraceRepository(db: Queryable) {
  return {
    /** Adds a turn's trace and keeps the conversation's newest `keep` (run it in the turn's transaction). */
    async add(conversationId: number, at: number, steps: AgentTraceStep[], keep: number): Promise<void> {
      await db.run('INSERT INTO agent_traces (conversation_id, at, steps) VALUES ($1, $2, $3)', [conversationId, at, JSON.stringify(steps)]);
      await db.run(
        `DELETE FROM agent_traces WHERE conversation_id = $1 AND id <= (
           SELECT id FROM agent_traces WHERE conversation_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
        [conversationId, keep],
      );
    },
    /** The newest `limit` traces, newest first. */
    async latest(conversationId: number, limit: number): Promise<AgentTraceRecord[]> {
      const rows = await db.all<TraceRow>('SELECT at, steps FROM agent_traces WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2', [conversationId, limit]);
      return rows.map((r) => ({ at: Number(r.at), steps: stepsOf(r.steps) }));
    },
  };
}
