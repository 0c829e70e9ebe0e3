// How long a platform asked to wait before the next call (RFC 9110 `Retry-After`: seconds, or an
// HTTP date), as the outbox's retryAfterMs. Meta, Twilio and Slack all send it with a 429.

export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
