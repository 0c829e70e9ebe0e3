// Where the server key comes from: COLLOQUY_SECRET_KEY, or else <data dir>/secret.key, made on
// first start (mode 0600). Nodes sharing one PostgreSQL database must share the key too; the
// check value in the database makes a node with another key refuse to start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keyFromText, SecretBox } from './secret-box.js';

export const KEY_FILE = 'secret.key';

export interface ServerKey {
  box: SecretBox;
  /** where the key came from, for messages */
  source: string;
  /** this start made the key file (worth saying: it must be backed up with the database) */
  created: boolean;
}

export function loadServerKey(options: { secretKey?: string | null; dataDir: string }): ServerKey {
  if (options.secretKey) return { box: new SecretBox(keyFromText(options.secretKey)), source: 'COLLOQUY_SECRET_KEY', created: false };
  const file = path.join(options.dataDir, KEY_FILE);
  const created = !fs.existsSync(file) && createKeyFile(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the key file ${file}: ${(error as Error).message}`);
  }
  try {
    return { box: new SecretBox(keyFromText(text)), source: `the key file ${file}`, created };
  } catch (error) {
    throw new Error(`the key file ${file} holds no usable key: ${(error as Error).message}`);
  }
}

/**
 * Written whole under a temporary name, then hard-linked into place: link fails if the file
 * exists, so of several processes starting at once one key wins and no one reads half a file.
 */
function createKeyFile(file: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
