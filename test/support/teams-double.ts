// A stand-in for the Bot Framework on 127.0.0.1, written from Microsoft's public docs
// (learn.microsoft.com "Authentication with the Bot Connector API", "Send and receive activities",
// "Cards reference"):
// - `GET /v1/.well-known/openidconfiguration`: the OpenID metadata (`issuer`, `jwks_uri`, RS256);
// - `GET /v1/.well-known/keys`: the JWKS, keys with `endorsements` (channel ids), made with jose;
// - `POST /{tenant}/oauth2/v2.0/token`: client credentials (`client_id`, `client_secret`, scope
//   `https://api.botframework.com/.default`) → `{token_type, expires_in, access_token}`; a wrong
//   secret is 401 `invalid_client`;
// - `POST /v3/conversations/{id}/activities` with a token it issued: the connector. Every activity
//   is checked as the service would (type, text size, attachments and Hero card buttons); what it
//   would refuse lands in `violations` (and is answered 400 BadArgument).
// `activity()` signs an activity's bearer token as the Bot Framework does (or forges one).
import crypto from 'node:crypto';
import type http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { ScriptedDouble } from './double-kit.js';

export interface TeamsCall {
  conversationId: string;
  activity: Record<string, any>;
  status: number;
  at: number;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: Record<string, unknown>;
}

export interface TokenOptions {
  /** sign with this key instead of a published one (a forger's) */
  key?: SigningKey;
  audience?: string;
  issuer?: string;
  /** seconds from now; negative: expired */
  expiresIn?: number;
  /** the `serviceurl` claim; default the activity's serviceUrl */
  serviceUrl?: string;
}

const ISSUER = 'https://api.botframework.com';
const HERO = 'application/vnd.microsoft.card.hero';
/** Teams refuses a message over about 28 KB (learn.microsoft.com "Format your bot messages"). */
const MAX_ACTIVITY_BYTES = 28 * 1024;

export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = crypto.randomBytes(12).toString('base64url');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256', endorsements: ['msteams'] } };
}

export class TeamsDouble extends ScriptedDouble<TeamsCall> {
  protected readonly platform = 'Teams';
  private keys: SigningKey[] = [];
  private readonly issued = new Set<string>();
  metadataFetches = 0;
  keyFetches = 0;
  tokenRequests = 0;

  private constructor(
    readonly appId: string,
    readonly appPassword: string,
  ) {
    super();
  }

  /** Listens on loopback: `openIdUrl`, `tokenUrl` and `serviceUrl` then point the server here. */
  static async start(appId: string, appPassword: string): Promise<TeamsDouble> {
    const double = await new TeamsDouble(appId, appPassword).listen();
    double.keys = [await newSigningKey()];
    return double;
  }

  get openIdUrl(): string {
    return `${this.url}/v1/.well-known/openidconfiguration`;
  }
  get tokenUrl(): string {
    return `${this.url}/botframework.com/oauth2/v2.0/token`;
  }
  get serviceUrl(): string {
    return `${this.url}/teams/`;
  }

  /** Publishes a new key and signs with it from now on (Microsoft rotates its keys). */
  async rotate(): Promise<void> {
    this.keys.unshift(await newSigningKey());
  }

  /** The bearer token the Bot Framework sends with an activity. */
  token(activity: { serviceUrl?: string }, options: TokenOptions = {}): Promise<string> {
    const key = options.key ?? this.keys[0];
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ serviceurl: options.serviceUrl ?? activity.serviceUrl })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? this.appId)
      .setIssuedAt(now - 60)
      .setNotBefore(now - 60)
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(key.privateKey);
  }

  protected describe(c: TeamsCall): unknown {
    return [c.status, c.conversationId, c.activity.type, String(c.activity.text ?? '').slice(0, 60)];
  }

  /** Activities the connector accepted for one conversation, in order. */
  activitiesTo(conversationId: string): Record<string, any>[] {
    return this.calls.filter((c) => c.status === 200 && c.conversationId === conversationId).map((c) => c.activity);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      const raw = Buffer.concat(chunks);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (req.method === 'GET' && path === '/v1/.well-known/openidconfiguration') {
        this.metadataFetches++;
        return json(200, {
          issuer: ISSUER,
          authorization_endpoint: `${this.url}/v1/.well-known/authorize`,
          jwks_uri: `${this.url}/v1/.well-known/keys`,
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
        });
      }
      if (req.method === 'GET' && path === '/v1/.well-known/keys') {
        this.keyFetches++;
        return json(200, { keys: this.keys.map((k) => k.jwk) });
      }
      const tokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
      if (req.method === 'POST' && tokenPath) return this.tokenRequest(new URLSearchParams(raw.toString('utf8')), json);
      const connector = /^\/teams\/v3\/conversations\/([^/]+)\/activities$/.exec(path);
      if (req.method !== 'POST' || !connector) return json(404, { error: { code: 'NotFound', message: path } });
      const conversationId = decodeURIComponent(connector[1]);
      const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!this.issued.has(bearer)) {
        this.violations.push(`a connector call without a token the token endpoint issued (${conversationId})`);
        return json(401, { message: 'Authorization has been denied for this request.' });
      }
      let activity: Record<string, any>;
      try {
        activity = JSON.parse(raw.toString('utf8'));
      } catch {
        this.violations.push('a body that is not JSON');
        return json(400, { error: { code: 'BadSyntax', message: 'not JSON' } });
      }
      const problems = checkActivity(activity, raw.length);
      const answer = problems.length > 0 ? 'invalid' : (this.script.shift() ?? 'ok');
      const status = answer === 'ok' ? 200 : answer === 'rate-limit' ? 429 : answer === 'server-error' ? 500 : answer === 'invalid' ? 400 : 0;
      this.violations.push(...problems.map((p) => `${p} in ${JSON.stringify(activity).slice(0, 300)}`));
      this.calls.push({ conversationId, activity, status, at: Date.now() });
      if (answer === 'hang') return void this.hanging.push(res);
      if (answer === 'rate-limit') return json(429, { error: { code: 'TooManyRequests', message: 'Too many requests' } }, { 'retry-after': String(this.retryAfterSeconds) });
      if (answer === 'server-error') return json(500, { error: { code: 'ServiceError', message: 'Internal error' } });
      if (answer === 'invalid') return json(400, { error: { code: 'BadArgument', message: problems.join('; ') } });
      return json(200, { id: `1:${crypto.randomBytes(8).toString('hex')}` });
    });
  }

  private tokenRequest(form: URLSearchParams, json: (status: number, body: unknown) => void): void {
    this.tokenRequests++;
    if (form.get('grant_type') !== 'client_credentials' || form.get('scope') !== 'https://api.botframework.com/.default') {
      this.violations.push(`a token request Azure AD would refuse: ${form.toString()}`);
      return json(400, { error: 'invalid_request', error_description: 'AADSTS900144' });
    }
    if (form.get('client_id') !== this.appId || form.get('client_secret') !== this.appPassword) {
      return json(401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    const token = crypto.randomBytes(24).toString('base64url');
    this.issued.add(token);
    json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
  }
}

/** What the connector would refuse in an activity it is sent. */
export function checkActivity(activity: Record<string, any>, bytes: number): string[] {
  const problems: string[] = [];
  if (bytes > MAX_ACTIVITY_BYTES) problems.push(`an activity of ${bytes} bytes`);
  if (activity.type === 'typing') return problems;
  if (activity.type !== 'message') return [...problems, `an activity of type ${activity.type}`];
  const attachments = activity.attachments ?? [];
  if (activity.text === undefined && attachments.length === 0) problems.push('a message with neither text nor attachments');
  if (activity.text !== undefined && (typeof activity.text !== 'string' || activity.text === '')) problems.push('an empty text');
  if (activity.attachmentLayout !== undefined && !['list', 'carousel'].includes(activity.attachmentLayout)) problems.push(`attachmentLayout ${activity.attachmentLayout}`);
  for (const a of attachments) {
    if (typeof a.contentType !== 'string') problems.push('an attachment without contentType');
    else if (a.contentType === HERO) {
      const buttons = a.content?.buttons ?? [];
      if (buttons.length > 6) problems.push(`a Hero card with ${buttons.length} buttons`);
      for (const b of buttons) {
        if (!['messageBack', 'imBack', 'openUrl'].includes(b.type) || typeof b.title !== 'string' || b.title === '' || typeof b.value !== 'string') problems.push(`a button ${JSON.stringify(b)}`);
      }
    } else if (typeof a.contentUrl !== 'string' || !/^https:\/\//.test(a.contentUrl)) problems.push(`a media attachment without an https contentUrl: ${JSON.stringify(a)}`);
  }
  return problems;
}
