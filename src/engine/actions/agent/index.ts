// `agent`: a language model that holds the conversation and uses tools (agents.md). Reached with
// a user text, it runs a turn on it; reached without (RESET, a click, a forced position), it waits.
// While it holds the conversation every user text comes to `answer` before any trigger, intent or
// fallback (run-turn.ts); it lets go when a tool leaves (flow, handover), the flow moves on, the
// conversation is reset or an operator takes it over. The loop itself is loop.ts.
import { defineAction, type SaveCheckContext, type SaveProblem } from '../../action-definition.js';
import { objectList } from '../fields.js';
import { targetProblems } from '../goTo/index.js';
import { actionSchema } from '../schema-parts.js';
import { parametersProblem, schemaProblem } from './arguments.js';
import { agentTurn, hold } from './loop.js';
import { AGENT_FIELDS, TOOL_NAME_PATTERN } from './schema.js';

const NAME = new RegExp(TOOL_NAME_PATTERN);

export const agentAction = defineAction({
  type: 'agent',
  needsId: true,
  holdsConversation: true,
  schema: actionSchema('agent', AGENT_FIELDS),
  check(action, context) {
    return toolProblems(objectList(action.tools), context);
  },
  *run(action, rc) {
    // Without an id a later text could never find its way back to this agent: skip it.
    if (typeof action.id !== 'string' || action.id === '') return;
    const text = rc.takeUserText();
    if (text === null || text.trim() === '') return hold(action, rc);
    return yield* agentTurn(action, rc, text);
  },
  *answer(action, rc, text, waiting) {
    rc.takeUserText();
    // a call waits for a colleague: the text is kept with the conversation, the model is not asked
    if (waiting.approval !== undefined) return { kind: 'wait' };
    if (text.trim() === '') return hold(action, rc);
    return yield* agentTurn(action, rc, text);
  },
  *resume(action, rc, decision) {
    return yield* agentTurn(action, rc, decision);
  },
});

/** agents.md "Checked at save and publish": names, parameters, flow targets (the MCP server names are the publish check's). */
function toolProblems(tools: Record<string, unknown>[], context: SaveCheckContext): SaveProblem[] {
  const problems: SaveProblem[] = [];
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const at = (...path: Array<string | number>) => ['tools', index, ...path];
    const name = typeof tool.name === 'string' ? tool.name : tool.type === 'knowledge' || tool.type === 'handover' ? tool.type : null;
    if (name !== null) {
      if (!NAME.test(name)) problems.push({ path: at('name'), message: `tool name '${name}' must match ${TOOL_NAME_PATTERN}` });
      else if (seen.has(name.toLowerCase())) problems.push({ path: at('name'), message: `tool name '${name}' is used twice` });
      seen.add(name.toLowerCase());
    }
    if (tool.parameters !== undefined) {
      const problem = parametersProblem(tool.parameters);
      if (problem !== null) problems.push({ path: at('parameters'), message: problem });
    }
    if (tool.type === 'variable' && tool.schema !== undefined) {
      const problem = schemaProblem(tool.schema);
      if (problem !== null) problems.push({ path: at('schema'), message: `schema is ${problem}` });
    }
    if (tool.type === 'flow') problems.push(...targetProblems(tool.behaviour, tool.interaction, context, 'flow tool').map((p) => ({ ...p, path: at(...p.path) })));
  });
  return problems;
}
