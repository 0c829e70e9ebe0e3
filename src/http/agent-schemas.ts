// The bodies and answers of the agents' secrets and MCP servers routes (agents.md "Secrets", "MCP
// servers"), for validation and for /docs. Bounds here are the first line; the services check again.
import { Type } from 'typebox';
import { Nullable } from './wire-schemas.js';
import { MCP_LIMITS } from '../mcp/model.js';
import { SECRET_LIMITS } from '../secrets/model.js';

export const SecretParams = Type.Object({
  APIKey: Type.String({ maxLength: 64 }),
  // the pattern (^[A-Za-z0-9_]{1,64}$) is checked by the service, after the body: a bad body is reported first
  NAME: Type.String({ maxLength: 64, description: 'letters, digits and _; used as {{secret.NAME}} in a callApi (or http tool) URL, header or body' }),
});

export const SecretBody = Type.Object(
  {
    Value: Type.String({ maxLength: SECRET_LIMITS.valueChars, description: 'stored encrypted, never returned' }),
    Hosts: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      minItems: 1,
      maxItems: SECRET_LIMITS.hosts,
      description: 'host names (or IP addresses) the value may be sent to; elsewhere {{secret.NAME}} is sent empty',
    }),
  },
  { additionalProperties: false },
);

export const SecretList = Type.Object({
  Result: Type.Array(Type.Object({ Name: Type.String(), Hosts: Type.Array(Type.String()), UpdatedAt: Type.String({ format: 'date-time' }) })),
});

export const McpParams = Type.Object({
  APIKey: Type.String({ maxLength: 64 }),
  // the pattern (^[A-Za-z0-9_-]{1,32}$, no "__") is checked by the service, after the body
  Name: Type.String({ maxLength: 32, description: 'letters, digits, - and _ (not "__"): how agents name the server (tools are offered as <Name>__<tool>)' }),
});

export const McpBody = Type.Object(
  {
    Url: Type.String({ minLength: 1, maxLength: MCP_LIMITS.urlChars, description: 'the Streamable HTTP endpoint; through the private-network guard' }),
    Headers: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MCP_LIMITS.headerValueChars }), {
        maxProperties: MCP_LIMITS.headers,
        description: 'sent with every request (e.g. Authorization); stored encrypted, never returned. Left out: kept when Url is unchanged, dropped when it changes',
      }),
    ),
  },
  { additionalProperties: false },
);

const Tools = Type.Array(Type.Object({ Name: Type.String(), Description: Type.String() }));
export const McpConnected = Type.Object({ Name: Type.String(), Url: Type.String(), Tools });
export const McpList = Type.Object({
  Result: Type.Array(Type.Object({ Name: Type.String(), Url: Type.String(), Tools, LastError: Nullable(Type.String({ description: 'why the last attempt failed; null once it answers' })) })),
});
