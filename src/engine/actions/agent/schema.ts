// The fields of an `agent` action and of each of its tools (agents.md "The `agent` action" and
// "Tools"), declared once with TypeBox: the JSON Schema of /schema/bot.json and the types the loop
// reads. The bounds (steps, history, time) are the contract's; docs/limits.md lists them.
import { Type } from 'typebox';
import { NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';

export const DEFAULT_MAX_STEPS = 5;
export const MAX_MAX_STEPS = 10;
export const DEFAULT_AGENT_HISTORY = 20;
export const MAX_AGENT_HISTORY = 100;
export const DEFAULT_AGENT_TIMEOUT_MS = 20_000;
export const MAX_AGENT_TIMEOUT_MS = 60_000;
export const MAX_TOOLS = 32;
export const DEFAULT_APPROVAL_MESSAGE = 'One moment, a colleague must approve this.';
/** OpenAI's rule for function names, and ours for every tool name. */
export const TOOL_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

const NAME = Type.String({ pattern: TOOL_NAME_PATTERN, description: 'how the model calls the tool: letters, digits, _ and -, at most 64' });
const DESCRIPTION = Type.String({ maxLength: 1024, description: 'what the tool does, for the model' });
/** A JSON Schema for the tool's arguments; save checks it is an object schema ajv can compile. */
export const JSON_SCHEMA = Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'a JSON Schema (type object)' });
const APPROVAL = {
  approval: Type.Optional(Type.Boolean({ description: 'an operator must approve each call before it is made' })),
  approvalMessage: Type.Optional(TEXT),
};

const httpTool = Type.Object(
  {
    type: Type.Literal('http'),
    name: NAME,
    description: DESCRIPTION,
    parameters: Type.Optional(JSON_SCHEMA),
    request: Type.Object(
      {
        method: NON_EMPTY_TEXT,
        url: NON_EMPTY_TEXT,
        headers: Type.Optional(Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: TEXT })),
        body: Type.Optional(TEXT),
      },
      { additionalProperties: false },
    ),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 30_000 })),
    responsePath: Type.Optional(TEXT),
    ...APPROVAL,
  },
  { additionalProperties: false },
);

const flowTool = Type.Object(
  {
    type: Type.Literal('flow'),
    name: NAME,
    description: DESCRIPTION,
    behaviour: NON_EMPTY_TEXT,
    interaction: Type.Optional(NON_EMPTY_TEXT),
    parameters: Type.Optional(JSON_SCHEMA),
  },
  { additionalProperties: false },
);

const variableTool = Type.Object(
  { type: Type.Literal('variable'), name: NAME, description: DESCRIPTION, variable: NON_EMPTY_TEXT, schema: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object' })) },
  { additionalProperties: false },
);

const knowledgeTool = Type.Object(
  { type: Type.Literal('knowledge'), name: Type.Optional(NAME), description: Type.Optional(DESCRIPTION), maxPassages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })) },
  { additionalProperties: false },
);

const handoverTool = Type.Object({ type: Type.Literal('handover'), name: Type.Optional(NAME), description: DESCRIPTION, message: Type.Optional(TEXT) }, { additionalProperties: false });

const mcpTool = Type.Object(
  {
    type: Type.Literal('mcp'),
    server: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,32}$', description: "a name of the bot's MCP servers" }),
    allow: Type.Optional(Type.Array(NON_EMPTY_TEXT, { maxItems: 64, description: 'only these of its tools (default all)' })),
    ...APPROVAL,
  },
  { additionalProperties: false },
);

export const TOOL = Type.Union([httpTool, flowTool, variableTool, knowledgeTool, handoverTool, mcpTool]);

export const AGENT_FIELDS = {
  instructions: Type.String({ maxLength: 16_384, description: 'the system message (a template: the variables it names are filled in)' }),
  tools: Type.Optional(Type.Array(TOOL, { maxItems: MAX_TOOLS })),
  maxSteps: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_MAX_STEPS, description: `model calls a turn may make (default ${DEFAULT_MAX_STEPS})` })),
  history: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AGENT_HISTORY, description: `earlier stored messages sent along (default ${DEFAULT_AGENT_HISTORY})` })),
  variable: Type.Optional(NON_EMPTY_TEXT),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AGENT_TIMEOUT_MS, description: `for the whole turn (default ${DEFAULT_AGENT_TIMEOUT_MS})` })),
  onError: Type.Optional(OPERATIONS),
};

/** A tool as the loop reads it: a validated file has these shapes, an unvalidated one is read defensively. */
export type ToolConfig = Record<string, unknown> & { type: string };
