// Who may talk to a Teams bot and where its replies may go (channels-more.md "Inbound", Teams; the
// Bot Framework's "Authentication with the Bot Connector API"): every activity carries a JWT signed
// by a key the Bot Framework's OpenID metadata names in its `jwks_uri`, issued by
// https://api.botframework.com for the bot's app id, unexpired, whose `serviceurl` claim is the
// activity's own serviceUrl; that URL is then trusted for replies only when its host is on the
// server's allow-list. Keys are fetched through jose, cached, and fetched again for an unknown key
// id at most once per refresh period, so a stream of forged key ids cannot make the server hammer
// the metadata host.
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type RemoteJWKSet } from 'jose';
import { fetch } from 'undici';
import type { BotFrameworkConfig } from '../../config.js';

export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
/** The Bot Framework allows this much clock skew between its token service and a bot. */
const CLOCK_TOLERANCE_SECONDS = 5 * 60;
/** The metadata and keys change rarely (Microsoft rotates keys with notice): looked up again daily. */
const METADATA_MAX_AGE_MS = 24 * 3_600_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_TOKEN_LENGTH = 8 * 1024;

/** A host pattern of COLLOQUY_BOTFRAMEWORK_SERVICE_HOSTS: `*.example.com` matches any name below example.com, not example.com itself. */
export function hostAllowed(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const host = parsed.hostname.toLowerCase();
  return patterns.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern));
}

/**
 * The Bot Framework's keys list the channels each may sign for (`endorsements`): an activity naming
 * a channel its key does not endorse is refused, as Microsoft's own authentication does.
 */
function endorses(keys: RemoteJWKSet, kid: string | undefined, channelId: unknown): boolean {
  const key = keys.jwks()?.keys.find((k) => k.kid === kid) as { endorsements?: unknown } | undefined;
  if (!Array.isArray(key?.endorsements)) return true;
  return typeof channelId === 'string' && key.endorsements.includes(channelId);
}

export class BotFrameworkAuth {
  private keys: { set: RemoteJWKSet; at: number } | null = null;
  private loading: Promise<RemoteJWKSet> | null = null;
  /** when the metadata could not be read: not asked again before the refresh period ends */
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly config: Pick<BotFrameworkConfig, 'openIdUrl' | 'serviceHosts' | 'keysRefreshSeconds'>) {}

  /**
   * True only for an activity the Bot Framework sent to this app: the bearer token checks out and
   * names the activity's serviceUrl, whose host the server allows. `serviceUrl` undefined: the body
   * is not an activity at all, so only the token is checked (the body is then refused as malformed).
   */
  async verify(authorization: unknown, appId: string, activity: { serviceUrl?: unknown; channelId?: unknown } | undefined): Promise<boolean> {
    if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ') || authorization.length > MAX_TOKEN_LENGTH) return false;
    const token = authorization.slice('Bearer '.length).trim();
    let payload: JWTPayload;
    let kid: string | undefined;
    let keys: RemoteJWKSet;
    try {
      keys = await this.keySet();
      ({
        payload,
        protectedHeader: { kid },
      } = await jwtVerify(token, keys, {
        issuer: BOT_FRAMEWORK_ISSUER,
        audience: appId,
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch {
      return false;
    }
    if (activity === undefined) return true;
    // Microsoft's tokens name it `serviceurl`; the docs write `serviceUrl`: either, never a different one.
    const claimed = payload.serviceurl ?? payload.serviceUrl;
    if (typeof activity.serviceUrl !== 'string' || claimed !== activity.serviceUrl) return false;
    if (!endorses(keys, kid, activity.channelId)) return false;
    return hostAllowed(activity.serviceUrl, this.config.serviceHosts);
  }

  /** The key set named by the OpenID metadata, looked up again once a day (jose caches the keys themselves). */
  private keySet(): Promise<RemoteJWKSet> {
    const now = Date.now();
    if (this.keys && now - this.keys.at < METADATA_MAX_AGE_MS) return Promise.resolve(this.keys.set);
    if (now - this.failedAt < this.config.keysRefreshSeconds * 1000) return Promise.reject(new Error("the Bot Framework's OpenID metadata could not be read lately"));
    this.loading ??= this.loadMetadata()
      .catch((error: unknown) => {
        this.failedAt = Date.now();
        throw error;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  private async loadMetadata(): Promise<RemoteJWKSet> {
    const response = await fetch(this.config.openIdUrl, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`the Bot Framework's OpenID metadata answered ${response.status}`);
    const metadata = (await response.json()) as { jwks_uri?: unknown };
    if (typeof metadata.jwks_uri !== 'string') throw new Error("the Bot Framework's OpenID metadata has no jwks_uri");
    const set = createRemoteJWKSet(new URL(metadata.jwks_uri), {
      timeoutDuration: FETCH_TIMEOUT_MS,
      cooldownDuration: this.config.keysRefreshSeconds * 1000,
      cacheMaxAge: METADATA_MAX_AGE_MS,
    });
    this.keys = { set, at: Date.now() };
    return set;
  }
}
