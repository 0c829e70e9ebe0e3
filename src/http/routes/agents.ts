// A bot's secrets and MCP servers (agents.md "Secrets", "MCP servers"), with an account token.
// Neither a secret's value nor a server's headers ever leave through these routes.
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { McpBody, McpConnected, McpList, McpParams, SecretBody, SecretList, SecretParams } from '../agent-schemas.js';
import { Type } from 'typebox';

const KeyParams = Type.Object({ APIKey: Type.String({ maxLength: 64 }) });
const noContent = (description: string) => ({ 204: { description, type: 'null' } });

export function agentRoutes(app: App, s: Services): void {
  const secrets = { ...authed('account'), schema: { tags: ['agents'], security: [{ bearer: [] }] } };
  const bot = (request: FastifyRequest) => s.bots.owned(accountOf(request), (request.params as { APIKey: string }).APIKey);

  app.get(
    '/bots/:APIKey/secrets',
    { ...secrets, schema: { ...secrets.schema, summary: "The bot's secrets: names and hosts, never a value", params: KeyParams, response: { 200: SecretList }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => ({
      Result: await s.secrets.list(await bot(request)),
    }),
  );

  app.put(
    '/bots/:APIKey/secrets/:NAME',
    {
      ...secrets,
      schema: {
        ...secrets.schema,
        summary: 'Store a secret for {{secret.NAME}}, sent only to its Hosts',
        params: SecretParams,
        body: SecretBody,
        response: noContent('Stored'),
        errors: ['BOT_NOT_FOUND', 'MISSING_FIELD', 'SECRET_LIMIT'],
      },
    },
    async (request, reply) => {
      await s.secrets.put(await bot(request), request.params.NAME, request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/bots/:APIKey/secrets/:NAME',
    { ...secrets, schema: { ...secrets.schema, summary: 'Delete a secret', params: SecretParams, response: noContent('Deleted (or there was none)'), errors: ['BOT_NOT_FOUND'] } },
    async (request, reply) => {
      await s.secrets.remove(await bot(request), request.params.NAME);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/bots/:APIKey/mcp',
    { ...secrets, schema: { ...secrets.schema, summary: "The bot's MCP servers and their tools, never their headers", params: KeyParams, response: { 200: McpList }, errors: ['BOT_NOT_FOUND'] } },
    async (request) => ({
      Result: await s.mcp.servers.list(await bot(request)),
    }),
  );

  app.put(
    '/bots/:APIKey/mcp/:Name',
    {
      ...secrets,
      schema: {
        ...secrets.schema,
        summary: 'Add or change an MCP server: it is connected and its tools listed first',
        params: McpParams,
        body: McpBody,
        response: { 200: McpConnected },
        errors: ['BOT_NOT_FOUND', 'MCP_UNREACHABLE', 'MCP_SERVER_LIMIT'],
      },
    },
    async (request) => s.mcp.servers.put(await bot(request), request.params.Name, request.body),
  );

  app.delete(
    '/bots/:APIKey/mcp/:Name',
    { ...secrets, schema: { ...secrets.schema, summary: 'Remove an MCP server', params: McpParams, response: noContent('Removed (or there was none)'), errors: ['BOT_NOT_FOUND'] } },
    async (request, reply) => {
      await s.mcp.servers.remove(await bot(request), request.params.Name);
      return reply.code(204).send(null);
    },
  );
}

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;
