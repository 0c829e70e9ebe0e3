// What is checked at publish but not at save (agents.md "Checked at save and publish"): an agent's
// `mcp` tool must name one of the bot's MCP servers. A save cannot ask this: a bot file is created
// (and published as Version 1) before the bot has a key to configure servers under, and a draft
// may name a server that is added before the publish.
import { actionRegistry } from '../engine/registry.js';
import type { BotContent } from './model.js';
import { toJsonPath, type Problem } from './problems.js';
import { botSchemaFor } from './schema.js';
import { forEachAction, isObj } from './walk.js';

/** Every `mcp` tool of the draft's agents whose server is not among `servers`, at its JSON path. */
export function mcpServerProblems(content: BotContent, servers: readonly string[]): Problem[] {
  const known = new Set(servers);
  const problems: Problem[] = [];
  forEachAction(content, actionRegistry, botSchemaFor(actionRegistry), (action, path) => {
    if (action.type !== 'agent' || !Array.isArray(action.tools)) return;
    action.tools.forEach((tool: unknown, index: number) => {
      if (!isObj(tool) || tool.type !== 'mcp' || typeof tool.server !== 'string' || known.has(tool.server)) return;
      problems.push({
        Path: toJsonPath([...path, 'tools', index, 'server']),
        Message: `the bot has no MCP server named '${tool.server}' (add it with PUT /bots/{APIKey}/mcp/${tool.server})`,
      });
    });
  });
  return problems;
}
