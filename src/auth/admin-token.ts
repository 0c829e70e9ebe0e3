// The admin token: COLLOQUY_ADMIN_TOKEN, or one generated on first start. A generated token is
// kept only as a hash in the database (every node reads it) and shown once, when it is made.
import crypto from 'node:crypto';
import { newAdminToken, sha256 } from '../shared/keys.js';

const META_KEY = 'admin_token_sha256';

export interface AdminToken {
  matches(token: string): boolean;
  /** the token in clear, only when this start generated it (to print it once) */
  generated: string | null;
}

export async function loadAdminToken(store: { meta: { getOrInit(key: string, value: string): Promise<string> } }, fromEnv: string | null): Promise<AdminToken> {
  const candidate = newAdminToken();
  const expected = fromEnv ? sha256(fromEnv) : await store.meta.getOrInit(META_KEY, sha256(candidate));
  const expectedBytes = Buffer.from(expected, 'hex');
  return {
    // Every request's bearer is checked against the admin token: one hash, one constant-time compare.
    matches: (token) => crypto.timingSafeEqual(Buffer.from(sha256(token), 'hex'), expectedBytes),
    generated: !fromEnv && expected === sha256(candidate) ? candidate : null,
  };
}
