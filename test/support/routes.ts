// Every route the server registers, read from its own OpenAPI document, with path parameters
// filled in and the credential that opens it: tests that must cover every route (hostile input)
// pick up a new route without being edited.
import type { Client } from './client.js';

export type JsonSchema = Record<string, any>;

export interface RouteInfo {
  method: string;
  /** the OpenAPI path, e.g. /bots/{APIKey} */
  template: string;
  /** the path with parameters filled in */
  path: string;
  /** the JSON schema of the request body, or null when the route declares none */
  body: JsonSchema | null;
  /** true when the route declares bearer security */
  secured: boolean;
  /** the bearer token that opens it (undefined for open routes) */
  token?: string;
}

export interface RouteContext {
  botKey: string;
  /** the bot's public web key (web channel routes carry it in the path) */
  webKey: string;
  accountId: string;
  userId: string;
  tokens: { admin: string; account: string; bot: string };
  /** a share code (share routes carry it in the path); a made-up one when absent */
  shareCode?: string;
  /** the bot's internal id, as the console names bots */
  botId?: string;
  /** a canned response of the account (console routes carry its id in the path) */
  cannedId?: string;
  /** a team of the account (console routes carry its id in the path) */
  teamId?: string;
  operatorId?: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const carriesBody = (route: RouteInfo) => BODY_METHODS.has(route.method);
export const label = (route: RouteInfo) => `${route.method} ${route.template}`;

/** A value for a path parameter, by name (case-insensitive); unknown names get a plain word. */
function parameterValue(name: string, context: RouteContext): string {
  const values: Record<string, string> = {
    apikey: context.botKey,
    botapikey: context.botKey,
    key: context.webKey,
    webkey: context.webKey,
    accountid: context.accountId,
    userid: context.userId,
    mode: 'view',
    channel: 'telegram',
    hours: '1',
    version: '1',
    ...(context.shareCode ? { code: context.shareCode } : {}),
    ...(context.botId ? { botid: context.botId } : {}),
    ...(context.cannedId ? { cannedid: context.cannedId } : {}),
    ...(context.teamId ? { teamid: context.teamId } : {}),
    ...(context.operatorId ? { operatorid: context.operatorId } : {}),
  };
  return encodeURIComponent(values[name.toLowerCase()] ?? 'hostile-param');
}

export async function discoverRoutes(client: Client, context: RouteContext): Promise<RouteInfo[]> {
  const openapi = await client.get('/openapi.json');
  if (openapi.status !== 200) throw new Error(`GET /openapi.json: ${openapi.status}`);
  const routes: RouteInfo[] = [];
  for (const [template, operations] of Object.entries<Record<string, any>>(openapi.body.paths)) {
    // the designer's cookie routes are documented too; consoleApiRoutes covers every cookie route
    if (template.startsWith('/console/api/')) continue;
    for (const [method, operation] of Object.entries<any>(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const route: RouteInfo = {
        method: method.toUpperCase(),
        template,
        path: template.replace(/\{([^}]+)\}/g, (_m, name: string) => parameterValue(name, context)),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
        secured: Array.isArray(operation.security) && operation.security.length > 0,
      };
      if (route.secured) route.token = await credentialFor(client, route, context);
      routes.push(route);
    }
  }
  return routes;
}

/**
 * The first token the route does not refuse with 401/403. Probes never reach a handler with side
 * effects: requests that carry a body send malformed JSON (authentication runs before parsing).
 */
async function credentialFor(client: Client, route: RouteInfo, context: RouteContext): Promise<string> {
  for (const token of [context.tokens.bot, context.tokens.account, context.tokens.admin]) {
    const res = carriesBody(route) ? await client.call(route.method, route.path, undefined, { token, raw: '{"probe":' }) : await client.call(route.method, route.path, undefined, { token });
    if (res.status !== 401 && res.status !== 403) return token;
  }
  throw new Error(`no token opens ${label(route)}`);
}

/** A value that satisfies `schema` with the fewest fields (required ones only). */
export function sampleOf(schema: JsonSchema): unknown {
  if (Array.isArray(schema.anyOf)) return sampleOf(schema.anyOf[0]);
  if (Array.isArray(schema.oneOf)) return sampleOf(schema.oneOf[0]);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  switch (schema.type) {
    case 'string':
      if (schema.format === 'email') return 'hostile@example.org';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      // as many items as the schema asks for, so that the body is one the route accepts
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case 'null':
      return null;
    default: {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name] ?? {});
      return out;
    }
  }
}

/** A body schema that names its fields and refuses others (the usual route). */
export const isStrictObject = (schema: JsonSchema | null): boolean => schema?.type === 'object' && schema.additionalProperties === false;

/**
 * The credential a route takes, by the rules of api.md "Credentials" and docs/decisions.md (web
 * key and share code in the path, the console's session cookie). Derived from the path, not from
 * probing the server, so a test can hold the server to it; a route no rule covers throws.
 */
export type RouteAccess = 'open' | 'admin' | 'account' | 'bot' | 'apihook' | 'accountOrBot' | 'webKey' | 'shareCode' | 'session' | 'platform';

export function accessOf(route: Pick<RouteInfo, 'method' | 'template'>): RouteAccess {
  const path = route.template;
  if (['/health', '/metrics', '/schema/bot.json', '/schema/bot-test.json', '/authorization/integration', '/console/api/login', '/console/api/logout', '/console/api/team/join'].includes(path))
    return 'open';
  if (path.startsWith('/admin/')) return 'admin';
  if (/^\/bots\/\{[^}]+\}\/deliveries(\/|$)/.test(path)) return 'accountOrBot';
  if (path === '/bots/backup') return 'bot';
  if (path === '/bots' || path.startsWith('/bots/') || path.startsWith('/bot/') || path.startsWith('/account/')) return 'account';
  if (path.startsWith('/custom/') || path.startsWith('/conversation/')) return 'bot';
  if (path.startsWith('/apihook/')) return 'apihook';
  if (path.startsWith('/web/{')) return 'webKey';
  if (path.startsWith('/share/{')) return 'shareCode';
  if (path.startsWith('/console/api/')) return 'session';
  // a messaging platform's webhook: the unguessable ChannelId, then its secret token or signature
  if (path === '/channels/{Channel}/{ChannelId}' || path === '/channels/{Channel}/{ChannelId}/{Subpath}') return 'platform';
  throw new Error(`no credential rule covers ${route.method} ${path}: add one to accessOf (test/support/routes.ts)`);
}

/** Fills a path template (`/bots/{APIKey}` or `/console/api/conversations/:botId/:userId`) from the context. */
export const fillPath = (template: string, context: RouteContext) =>
  template.replace(/\{([^}]+)\}|:(\w+)/g, (_m, braced: string | undefined, colon: string | undefined) => parameterValue((braced ?? colon)!, context));

/**
 * The console API routes (`/console/api/*`): cookie-authenticated, so they stay out of
 * /openapi.json (decisions.md). Read from the server's own router instead, so that a new console
 * route is covered too. HEAD twins of GET routes are left out. `under` picks other parts of the
 * router (the share routes, `/share/`).
 */
export function consoleApiRoutes(app: { printRoutes(options: { commonPrefix: boolean }): string }, context: RouteContext, under = ['/console/api/']): RouteInfo[] {
  const routes: RouteInfo[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // "│   │   ├── api/login (POST)": four characters per level, then the segment and its methods
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const template = stack.join('');
    if (!match[3] || !under.some((prefix) => template.startsWith(prefix))) continue;
    for (const method of match[3].split(', ')) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const openApiTemplate = template.replace(/:(\w+)/g, '{$1}');
      routes.push({ method, template: openApiTemplate, path: fillPath(template, context), body: null, secured: accessOf({ method, template: openApiTemplate }) !== 'open' });
    }
  }
  return routes;
}
