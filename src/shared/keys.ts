// Credentials are random and unguessable; only their shapes differ so a human can tell them apart.
// In shared/ because accounts/ and bots/ mint them, store/ hashes them and auth/ checks them, and
// auth/ reads accounts' and bots' records (issue 38: no folder circle).
import crypto from 'node:crypto';

const random = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

export const newAccountId = () => crypto.randomUUID();
export const newAccountKey = () => `acc_${random(24)}`;
export const newBotId = () => crypto.randomUUID();
/** Bot API keys are GUIDs, as integrators' existing clients expect. */
export const newBotKey = () => crypto.randomUUID();
export const newBotSecret = () => random(32);
export const newWebKey = () => `web_${random(18)}`;
export const newAdminToken = () => `adm_${random(32)}`;

export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** Constant-time string comparison through hashes (so lengths don't leak either). */
export function sameSecret(a: string, b: string): boolean {
  return crypto.timingSafeEqual(Buffer.from(sha256(a), 'hex'), Buffer.from(sha256(b), 'hex'));
}

/** Identity and credentials of a new bot (its own key, secret and web key, whatever it was made from). */
export function newBotCredentials() {
  return { id: newBotId(), apiKey: newBotKey(), apiSecret: newBotSecret(), secretVersion: 1, webKey: newWebKey() };
}
