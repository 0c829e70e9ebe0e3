// The admin token: COLLOQUY_ADMIN_TOKEN, or one generated on first start. A generated token is
// kept only as a hash in the database (every node reads it) and shown once, when it is made.
import type { Store } from '../store/index.js';
import { newAdminToken, sameSecret, sha256 } from './keys.js';

const META_KEY = 'admin_token_sha256';

export interface AdminToken {
  matches(token: string): boolean;
  /** the token in clear, only when this start generated it (to print it once) */
  generated: string | null;
}

export async function loadAdminToken(store: Store, fromEnv: string | null): Promise<AdminToken> {
  if (fromEnv) return { matches: (token) => sameSecret(token, fromEnv), generated: null };
  const candidate = newAdminToken();
  const storedHash = await store.meta.getOrInit(META_KEY, sha256(candidate));
  return {
    matches: (token) => sameSecret(sha256(token), storedHash),
    generated: storedHash === sha256(candidate) ? candidate : null,
  };
}
