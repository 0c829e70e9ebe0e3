// Which pages may use a bot's web channel: the `Origin` a browser sends, against the bot's
// `channels.web.allowedOrigins`. Entries are exact origins (`https://shop.example.org`), `*` for
// any, or a wildcard subdomain (`https://*.example.org`), which site owners with many
// storefronts expect. Scheme and host compare case-insensitively, as browsers normalise them.
import { withoutTrailingSlashes } from '../../shared/trailing-slashes.js';

/** `scheme://host[:port]` in lower case, without a trailing slash or path; null when unusable. */
export function normalizeOrigin(origin: string): string | null {
  // Not /\/+$/, which is quadratic in a header any visitor writes (shared/trailing-slashes.ts).
  const trimmed = withoutTrailingSlashes(origin.trim().toLowerCase());
  if (trimmed === '' || trimmed === 'null') return null;
  return trimmed;
}

export function originAllowed(allowed: readonly string[], origin: string): boolean {
  const asked = normalizeOrigin(origin);
  // `Origin: null` (sandboxed frames, file:// pages) only passes an explicit `*`.
  if (asked === null) return allowed.includes('*');
  for (const entry of allowed) {
    if (entry === '*') return true;
    const want = normalizeOrigin(entry);
    if (want === null) continue;
    if (want === asked) return true;
    const star = want.indexOf('://*.');
    if (star > 0) {
      const scheme = want.slice(0, star + 3);
      const suffix = want.slice(star + 4); // ".example.org[:port]"
      if (asked.startsWith(scheme) && asked.endsWith(suffix) && asked.length > scheme.length + suffix.length) {
        const label = asked.slice(scheme.length, asked.length - suffix.length);
        if (!label.includes('/') && !label.includes(':')) return true;
      }
    }
  }
  return false;
}
