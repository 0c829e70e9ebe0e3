// The JSON Schema of conversation test files (testing.md): served at /schema/bot-test.json so that
// editors complete and check them, and the one definition `colloquy test` validates them with.
// Every string and list is bounded: a test file is input like any other.

const TEXT = { type: 'string', maxLength: 16384 } as const;
const NAME = { type: 'string', minLength: 1, maxLength: 256 } as const;
const REGEX = { type: 'string', minLength: 1, maxLength: 1024, description: 'a regular expression (JavaScript syntax), case-insensitive unless it starts with (?-i)' } as const;
const SCALAR = { type: ['string', 'number', 'boolean'] } as const;
const VALUES = { type: 'object', maxProperties: 500, propertyNames: { maxLength: 256 }, additionalProperties: SCALAR } as const;

/** A step is an object with exactly one of these members. */
const STEP_KINDS = {
  start: { const: true, description: 'a new conversation (RESET); implied before the first step' },
  bot: { $ref: '#/$defs/matcher', description: 'the next text the bot says (a text, a question, the text above buttons)' },
  user: { ...TEXT, description: 'a user text' },
  click: { ...NAME, description: "a button or quick reply of the bot's latest turn, by its label" },
  parts: {
    type: 'array',
    maxItems: 100,
    items: NAME,
    description: "the titles of the buttons, links, cards and media of the bot's latest turn, in order",
  },
  at: { type: 'string', pattern: '^[^/]+/[^/]+$', maxLength: 513, description: 'the conversation is at Behaviour/Interaction' },
  variable: { ...VALUES, minProperties: 1, description: 'the conversation variables have these values' },
  operator: { type: 'boolean', description: 'true: the bot handed the conversation to a person; false: it did not' },
} as const;

export const STEP_KIND_NAMES = Object.keys(STEP_KINDS) as Array<keyof typeof STEP_KINDS>;

export const TEST_FILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: '/schema/bot-test.json',
  title: 'Colloquy conversation tests',
  description: 'A *.test.yaml or *.test.json file run by `colloquy test` (docs/testing.md)',
  type: 'object',
  required: ['bot', 'tests'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', maxLength: 1024 },
    bot: { ...NAME, maxLength: 1024, description: 'the bot file (JSON or YAML), relative to this file' },
    tests: { type: 'array', minItems: 1, maxItems: 10000, items: { $ref: '#/$defs/test' } },
  },
  $defs: {
    test: {
      type: 'object',
      required: ['name', 'steps'],
      additionalProperties: false,
      properties: {
        name: NAME,
        variables: { ...VALUES, description: 'set before the first step' },
        now: { type: 'string', format: 'date-time', description: 'the fixed clock of this test (default 2026-01-05T09:00:00Z)' },
        stubs: {
          type: 'object',
          additionalProperties: false,
          description: 'what the outside world answers; a call without a matching stub fails the test',
          properties: {
            callApi: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/callApiStub' } },
            ai: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/answerStub' } },
            knowledge: { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/knowledgeStub' } },
            model: {
              type: 'array',
              maxItems: 1000,
              items: { $ref: '#/$defs/modelAnswer' },
              description: "an agent's model answers, in order, one per model call of the whole test",
            },
          },
        },
        steps: { type: 'array', minItems: 1, maxItems: 100000, items: { $ref: '#/$defs/step' } },
      },
    },
    step: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      properties: STEP_KINDS,
      description: `one of: ${Object.keys(STEP_KINDS).join(', ')}`,
    },
    matcher: {
      oneOf: [
        { ...TEXT, description: 'exactly this text' },
        { type: 'object', required: ['contains'], additionalProperties: false, properties: { contains: TEXT } },
        { type: 'object', required: ['regex'], additionalProperties: false, properties: { regex: REGEX } },
        { type: 'object', required: ['any'], additionalProperties: false, properties: { any: { const: true } } },
      ],
    },
    callApiStub: {
      type: 'object',
      additionalProperties: false,
      oneOf: [{ required: ['url'] }, { required: ['match'] }],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 8192, description: 'the exact URL called' },
        match: REGEX,
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] },
        status: { description: 'an HTTP status, or TIMEOUT / ERROR (default 200)', oneOf: [{ type: 'integer', minimum: 100, maximum: 599 }, { enum: ['TIMEOUT', 'ERROR'] }] },
        json: { description: 'the response body, as JSON' },
        body: { ...TEXT, description: 'the response body, as text' },
      },
    },
    answerStub: {
      type: 'object',
      required: ['match'],
      additionalProperties: false,
      properties: {
        match: { ...REGEX, description: 'a regex on the input the step sends' },
        answer: { ...TEXT, description: "the model's answer (reply text, label, or JSON for extract)" },
        status: { enum: ['OK', 'TIMEOUT', 'ERROR', 'NOT_CONFIGURED'], description: 'default OK' },
      },
    },
    modelAnswer: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      description: 'one of: say, call, fail',
      properties: {
        say: { ...TEXT, minLength: 1, description: "the model's text: the agent says it and its turn ends" },
        call: {
          type: 'object',
          required: ['tool'],
          additionalProperties: false,
          description: "the model calls one of the agent's tools; the call runs as it would on the server",
          properties: {
            tool: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$', description: "the tool's name as the agent offers it" },
            arguments: { type: 'object', maxProperties: 100, description: "the arguments (default {}), checked against the tool's parameters" },
          },
        },
        fail: { enum: ['TIMEOUT', 'ERROR'], description: 'the model call fails this way' },
      },
    },
    knowledgeStub: {
      type: 'object',
      required: ['match'],
      additionalProperties: false,
      properties: {
        match: { ...REGEX, description: 'a regex on the question' },
        answer: TEXT,
        sources: { type: 'array', maxItems: 100, items: NAME },
        status: { enum: ['ANSWERED', 'NO_ANSWER', 'ERROR', 'TIMEOUT'], description: 'default ANSWERED (NO_ANSWER without an answer)' },
      },
    },
  },
} as const;
