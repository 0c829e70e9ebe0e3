// What agents reach beyond the engine (issue 39): the bot's secrets (the API, and the filler that
// puts them into outbound requests) and its MCP servers (the API, and `mcpTools`, the
// McpToolSource an agent turn is handed). Built before the conversations, which send the requests.
import { McpServers } from '../mcp/servers.js';
import { McpTools } from '../mcp/tool-source.js';
import { BotSecrets } from '../secrets/service.js';
import { SecretFiller } from '../secrets/substitution.js';
import type { WiringBase } from './base.js';

export function agentParts({ config, store, clock }: WiringBase) {
  const mcpTools = new McpTools({ store, clock, allowPrivateNetwork: config.allowPrivateNetwork });
  return {
    secrets: new BotSecrets({ store, clock }),
    secretFiller: new SecretFiller(store),
    mcpTools,
    mcpServers: new McpServers({ store, tools: mcpTools, clock, allowPrivateNetwork: config.allowPrivateNetwork }),
  };
}
