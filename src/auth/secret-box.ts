// Secrets at rest: values the server must read back (bot API secrets sign webhooks, the token
// signing key signs tokens) are stored encrypted with AES-256-GCM under the server key
// (COLLOQUY_SECRET_KEY, or <data dir>/secret.key). A copy of the database alone gives none of them.
//
// Stored text: `v1:<base64url of nonce(12) | ciphertext | tag(16)>`. The version prefix names the
// key and format, so a later key rotation can re-encrypt row by row. Each value is bound to where
// it lives (the `context`, e.g. the bot's id) so ciphertexts cannot be swapped between rows.
import crypto from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Fixed salt: every node must derive the same key from the same passphrase. */
const PASSPHRASE_SALT = 'colloquy/secret-key/v1';

/** The node's key does not open this database's secrets (a node started with another key). */
export class SecretKeyMismatch extends Error {}

/**
 * The 32 key bytes in COLLOQUY_SECRET_KEY or the key file: 64 hex digits, base64(url) of 32 bytes,
 * or else a passphrase stretched with scrypt. Any text maps to one key, the same on every node.
 */
export function keyFromText(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes;
  }
  if (value.length < 16) throw new Error('the secret key must be 64 hex digits, base64 of 32 bytes, or a passphrase of at least 16 characters');
  return crypto.scryptSync(value, PASSPHRASE_SALT, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
}

export class SecretBox {
  private readonly encryptionKey: Buffer;
  /** Stored in meta: tells a node whether its key is the one this database was written with. */
  readonly check: string;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the secret key must be 32 bytes');
    // Separate keys for separate jobs, both derived from the one the operator keeps.
    const derive = (info: string) => Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
    this.encryptionKey = derive('colloquy aes-256-gcm v1');
    this.check = `${VERSION}:${crypto.createHmac('sha256', derive('colloquy key check v1')).update('colloquy').digest('hex')}`;
  }

  encrypt(plain: string, context: string): string {
    const nonce = crypto.randomBytes(NONCE_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.encryptionKey, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Throws when the value was not written by this key for this context (or was altered). */
  decrypt(stored: string, context: string): string {
    const [version, data] = stored.split(':', 2);
    if (version !== VERSION || data === undefined) throw new Error(`not an encrypted value of version ${VERSION}`);
    const raw = Buffer.from(data, 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('encrypted value too short');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
