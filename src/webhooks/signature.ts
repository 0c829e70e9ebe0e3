// X-Colloquy-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the bot secret>.
import crypto from 'node:crypto';

export function sign(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** What an integrator runs on their side (also documented in docs/webhooks.md). */
export function verify(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const fields = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2) as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || typeof fields.v1 !== 'string') return false;
  const expected = Buffer.from(sign(secret, body, t).split('v1=')[1], 'hex');
  const given = Buffer.from(fields.v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
