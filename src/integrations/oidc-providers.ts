// Each provider's configuration (its discovery document, and through it the JWKS that openid-client
// keeps per configuration, re-fetched by the library when it is five minutes old or a token names a
// key id it does not hold) is reused for DISCOVERY_TTL_MS instead of loaded at every start and
// every callback. A failed discovery is not kept, and a caller that saw the provider fail forgets
// the entry, so a provider that moved its endpoints or keys is read afresh at the next sign-in.
import crypto from 'node:crypto';
import type * as client from 'openid-client';
import { discover, type OidcOptions, type ProviderSettings } from './oidc.js';

/** How long a discovery document is reused; shorter than a sign-in's ten minutes, so one started before a change can finish after it. */
export const DISCOVERY_TTL_MS = 5 * 60_000;
/** Providers kept at once (one per account with SSO); past this, the least recently loaded goes. */
export const MAX_CACHED_PROVIDERS = 1000;

/** The issuer, client and secret together: settings that change any of them never reuse another's configuration. */
const keyOf = (s: ProviderSettings): string =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify([s.issuer, s.clientId, s.clientSecret]))
    .digest('hex');

export class ProviderConfigurations {
  private readonly entries = new Map<string, { configuration: Promise<client.Configuration>; until: number }>();

  constructor(
    private readonly options: OidcOptions,
    private readonly now: () => number,
  ) {}

  /** The provider's configuration, loaded at most once per DISCOVERY_TTL_MS (concurrent sign-ins share one load); ProviderFailure as `discover`. */
  configuration(settings: ProviderSettings): Promise<client.Configuration> {
    const key = keyOf(settings);
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.configuration;
    const configuration = discover(settings, this.options);
    this.entries.delete(key);
    this.entries.set(key, { configuration, until: now + DISCOVERY_TTL_MS });
    if (this.entries.size > MAX_CACHED_PROVIDERS) this.entries.delete(this.entries.keys().next().value as string);
    configuration.catch(() => this.drop(key, configuration));
    return configuration;
  }

  /** The provider failed with this configuration (a token refused, an unknown key): load it afresh next time. */
  forget(settings: ProviderSettings): void {
    this.entries.delete(keyOf(settings));
  }

  private drop(key: string, configuration: Promise<client.Configuration>): void {
    if (this.entries.get(key)?.configuration === configuration) this.entries.delete(key);
  }
}
