// The scripted model of a test (testing.md "Scripting an agent's model"): an agent's model calls
// are answered, in order, by the test's `stubs.model` list instead of a provider. What the model
// "says" or "calls" is scripted; what the bot does with it is not: every call goes through the
// agent's real tool execution (arguments checked against the tool's parameters, the HTTP request
// built from its template and answered by the `callApi` stubs, flows, variables, knowledge).
import type { AgentModelAnswer, AgentModelRequest } from '../engine/types.js';

export type ModelAnswerStub = { say: string } | { call: { tool: string; arguments?: Record<string, unknown> } } | { fail: 'TIMEOUT' | 'ERROR' };

/** Stops a test: the script cannot answer the bot's model call (ran out, or calls a tool the agent lacks). */
export class ModelScriptStop extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${expected}: ${actual}`);
    this.name = 'ModelScriptStop';
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Answers the agent's model calls of one test from its script, one entry per call, across its turns. */
export function scriptedModel(script: readonly ModelAnswerStub[]): (request: AgentModelRequest) => Promise<AgentModelAnswer> {
  let used = 0;
  return async (request) => {
    const entry = script[used];
    const position = `answer ${used + 1} of the model script`;
    used += 1;
    if (entry === undefined) {
      const actual =
        script.length === 0
          ? 'the test has no `stubs.model`: add the answers there, no model is ever called'
          : `the script ran out after ${plural(script.length, 'answer')}: add one under \`stubs.model\``;
      throw new ModelScriptStop(`${position} (the agent asked its model)`, actual);
    }
    if ('fail' in entry) return { status: entry.fail, text: '', toolCalls: [], tokens: 0 };
    if ('say' in entry) return { status: 'OK', text: entry.say, toolCalls: [], tokens: 0 };
    const offered = request.tools.map((t) => t.name);
    if (!offered.includes(entry.call.tool)) {
      const tools = offered.length === 0 ? 'it has none' : offered.join(', ');
      throw new ModelScriptStop(`${position} to call one of the agent's tools (${tools})`, `it calls "${entry.call.tool}", which the agent does not have`);
    }
    return { status: 'OK', text: '', toolCalls: [{ id: `call_${used}`, name: entry.call.tool, arguments: JSON.stringify(entry.call.arguments ?? {}) }], tokens: 0 };
  };
}
