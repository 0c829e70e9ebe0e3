// The console's OpenID Connect client (governance.md "Single sign-on"), over the maintained
// `openid-client` library: discovery, the authorization URL (code flow, PKCE S256, state, nonce)
// and the code exchange with the ID token verified (signature from the issuer's JWKS, iss, aud,
// exp, nonce). Every call to the provider goes through the outbound address guard (unless the
// server allows private networks), with a deadline and a cap on what it answers.
import * as client from 'openid-client';
import { cappedFetch } from './ai-client.js';
import { isPrivateLiteralUrl, outboundDispatcher } from './http-call.js';

/** A discovery document, JWKS or token answer larger than this is refused. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** Each call to the provider; a sign-in makes at most three (discovery, token, JWKS). */
export const PROVIDER_TIMEOUT_MS = 10_000;

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface OidcOptions {
  allowPrivateNetwork: boolean;
}

/** The provider could not be used: unreachable, refused, or what it answered does not hold. */
export class ProviderFailure extends Error {}

/** Whether an Issuer may be used at all: https, or http only where private networks are allowed (a test or lab provider). */
export function issuerAllowed(issuer: string, options: OidcOptions): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivateNetwork)) return false;
  return options.allowPrivateNetwork || !isPrivateLiteralUrl(issuer);
}

/** Every call through the address guard (private literals refused before dialling), capped, with a deadline. */
function guardedFetch(options: OidcOptions): client.CustomFetch {
  const capped = cappedFetch(outboundDispatcher(options.allowPrivateNetwork), MAX_ANSWER_BYTES);
  return async (url, init) => {
    if (!options.allowPrivateNetwork && isPrivateLiteralUrl(url)) throw new ProviderFailure('the provider named a private address');
    const deadline = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return (await capped(url, { ...init, signal })) as unknown as Response;
  };
}

/** Loads the issuer's discovery document (its `issuer` must be the Issuer, openid-client checks); ProviderFailure otherwise. */
export async function discover(settings: ProviderSettings, options: OidcOptions): Promise<client.Configuration> {
  if (!issuerAllowed(settings.issuer, options)) throw new ProviderFailure('the Issuer must be an https address of a public host');
  const execute = [client.enableNonRepudiationChecks, ...(new URL(settings.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [])];
  try {
    return await client.discovery(new URL(settings.issuer), settings.clientId, undefined, client.ClientSecretPost(settings.clientSecret), {
      [client.customFetch]: guardedFetch(options),
      execute,
    });
  } catch (error) {
    throw new ProviderFailure(`the discovery document of ${settings.issuer} could not be used: ${describe(error)}`);
  }
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** Where to send the browser: a fresh state, nonce and PKCE verifier (S256), returned for the callback. */
export async function authorizationRequest(config: client.Configuration, redirectUri: string, loginHint: string): Promise<AuthorizationRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: loginHint,
  });
  return { url: url.href, state, nonce, verifier };
}

/**
 * The verified ID token's claims for the callback URL, or ProviderFailure: an error answer, a
 * code the provider refuses (used already, wrong verifier), or an ID token whose signature, iss,
 * aud, exp or nonce does not hold.
 */
export async function exchangeCode(config: client.Configuration, callbackUrl: URL, expected: { state: string; nonce: string; verifier: string }): Promise<Record<string, unknown>> {
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.verifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new ProviderFailure('no ID token');
    return claims as Record<string, unknown>;
  } catch (error) {
    throw error instanceof ProviderFailure ? error : new ProviderFailure(describe(error));
  }
}

/** The library's words, without what a provider put in them beyond a line. */
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
  return text.slice(0, 300);
}
