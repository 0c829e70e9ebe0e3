// A tool's arguments checked against its JSON Schema (arguments.ts): the schemas MCP servers made
// with the official SDK list declare draft-07 (`$schema`), and must check arguments like any other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArguments } from './arguments.js';

test("a schema declaring draft-07 as its dialect checks arguments (the MCP SDK's tool schemas)", () => {
  const schema = { type: 'object', properties: { email: { type: 'string' } }, required: ['email'], $schema: 'http://json-schema.org/draft-07/schema#' };
  assert.deepEqual(parseArguments('{"email":"ann@example.com"}', schema), { ok: true, value: { email: 'ann@example.com' } });
  assert.deepEqual(parseArguments('{}', schema), { ok: false, error: "arguments do not fit: / must have required property 'email'" });
});
