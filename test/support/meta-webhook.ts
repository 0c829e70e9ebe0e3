// Meta webhook requests as Meta sends them (Webhooks guide, "Validating Payloads"): the JSON body
// with non-ASCII characters and slashes escaped (`\u00eb`, `\/`), signed over exactly those bytes
// with the app secret in `X-Hub-Signature-256: sha256=<hex>`. A server that re-encodes the JSON
// before checking the signature fails on these bytes.
import crypto from 'node:crypto';

export function metaBytes(body: unknown): string {
  return JSON.stringify(body)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function metaSignature(raw: string, appSecret: string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}
