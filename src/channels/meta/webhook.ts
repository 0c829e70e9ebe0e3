// What WhatsApp and Messenger webhooks share (Meta "Webhooks" guide, Getting Started: "Verification
// Requests" and "Validating Payloads"): the subscription handshake answered with hub.challenge,
// and `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, key = the app secret>`.
import crypto from 'node:crypto';
import type { InboundRequest } from '../messaging/platform.js';

const SIGNATURE_HEADER = 'x-hub-signature-256';
const SIGNATURE_SHAPE = /^sha256=([0-9a-f]{64})$/i;

/** true only when the body bytes were signed with this app secret (constant-time compare). */
export function verifyMetaSignature(request: InboundRequest, appSecret: string): boolean {
  const header = request.headers[SIGNATURE_HEADER];
  const match = typeof header === 'string' ? SIGNATURE_SHAPE.exec(header) : null;
  if (!match) return false;
  const sent = Buffer.from(match[1], 'hex');
  const expected = crypto.createHmac('sha256', appSecret).update(request.rawBody).digest();
  return sent.length === expected.length && crypto.timingSafeEqual(sent, expected);
}

/**
 * Meta's verification request: `hub.mode=subscribe`, `hub.verify_token` = the token pasted in the
 * app dashboard, `hub.challenge` echoed back. null (403) for anything else.
 */
export function metaChallenge(query: Record<string, string>, verifyToken: string): string | null {
  if (query['hub.mode'] !== 'subscribe' || typeof query['hub.challenge'] !== 'string') return null;
  const sent = Buffer.from(query['hub.verify_token'] ?? '');
  const expected = Buffer.from(verifyToken);
  return sent.length === expected.length && crypto.timingSafeEqual(sent, expected) ? query['hub.challenge'] : null;
}
