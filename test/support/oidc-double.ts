// The identity provider double for console single sign-on: `oidc-provider` (a certified OpenID
// Provider) on loopback with one confidential client, signing with a key the test holds. Its
// login needs no page: whoever `user` names is signed in and consents at once. Written from the
// OpenID Connect specifications; the ways a provider can be wrong are switches:
// `tamper` rewrites the ID token the token endpoint hands out (re-signed with the real key, or
// with `foreignKey` for a bad signature), `lyingIssuer` makes the discovery document name another
// issuer. `follow` walks a browser's redirects from our start URL to our callback URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';

export interface IdpUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export type IdTokenTamper = (claims: jose.JWTPayload) => jose.JWTPayload;

export interface OidcDouble {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** who signs in next */
  user: IdpUser;
  /** rewrites the next ID tokens (null: as the provider made them) */
  tamper: IdTokenTamper | null;
  /** sign the rewritten token with a key the JWKS does not hold */
  foreignKey: boolean;
  /** the discovery document names this issuer instead of its own */
  lyingIssuer: string | null;
  /** the paths the provider was asked for, in order */
  requests: string[];
  follow(startUrl: string, ourOrigin: string): Promise<{ callbackUrl: string }>;
  close(): Promise<void>;
}

const KID = 'double-key';

export async function startOidcDouble(redirectUri: string): Promise<OidcDouble> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await jose.exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const foreign = (await jose.generateKeyPair('RS256')).privateKey;

  const double: OidcDouble = {
    issuer,
    clientId: 'colloquy-console',
    clientSecret: 'double-client-secret-0123456789',
    user: { sub: 'ann', email: 'ann@shop.example', email_verified: true, name: 'Ann Shop' },
    tamper: null,
    foreignKey: false,
    lyingIssuer: null,
    requests: [],
    follow: (startUrl, ourOrigin) => follow(startUrl, ourOrigin),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const provider = new Provider(issuer, {
    clients: [{ client_id: double.clientId, client_secret: double.clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [privateJwk as never] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ ...double.user, sub }) }),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['double-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc double:', error));
  provider.use(async (ctx, next) => {
    double.requests.push(ctx.path);
    await next();
    if (ctx.path === '/.well-known/openid-configuration' && double.lyingIssuer) (ctx.body as Record<string, unknown>).issuer = double.lyingIssuer;
    if (ctx.path === '/token' && double.tamper && ctx.status === 200) {
      const answer = ctx.body as Record<string, unknown>;
      const claims = double.tamper(jose.decodeJwt(String(answer.id_token)));
      answer.id_token = await new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KID }).sign(double.foreignKey ? foreign : privateKey);
    }
  });

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      void finishInteraction(provider, double, req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  });
  return double;
}

/** The login and consent a person would give, at once: the current `user` signs in and grants what was asked. */
async function finishInteraction(provider: Provider, double: OidcDouble, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: double.user.sub, clientId: double.clientId });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: double.user.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/** A browser's walk through redirects (with the provider's cookies) until it is sent back to `ourOrigin`'s callback. */
async function follow(startUrl: string, ourOrigin: string): Promise<{ callbackUrl: string }> {
  const jar = new Map<string, string>();
  let url = startUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    await res.arrayBuffer();
    const location = res.headers.get('location');
    if (!location) throw new Error(`the walk stopped at ${url} with ${res.status}`);
    url = new URL(location, url).href;
    if (url.startsWith(`${ourOrigin}/console/sso/callback`)) return { callbackUrl: url };
    if (url.startsWith(`${ourOrigin}/console`)) throw new Error(`sent back to the console without a callback: ${url}`);
  }
  throw new Error('too many redirects');
}
