// Outbound HTTP for the `callApi` action (and, later, webhooks). Bot authors choose the URL, so
// this is an SSRF surface: unless the operator allows private networks, every address a request
// connects to must be public. The check lives inside the connection's own DNS lookup, so the
// address we vet is the address we dial (no DNS-rebinding window between check and connect).

import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch } from 'undici';
import type { HttpAnswer } from '../engine/types.js';

export interface HttpCallRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
}

export interface HttpCallOptions {
  allowPrivateNetwork: boolean;
  /** response bodies larger than this give ERROR (default 1 MiB) */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
const ERROR: HttpAnswer = { status: 'ERROR', body: '' };
const TIMEOUT: HttpAnswer = { status: 'TIMEOUT', body: '' };

function parseV4(ip: string): number[] | null {
  if (isIP(ip) !== 4) return null;
  return ip.split('.').map(Number);
}

/** IPv6 text → 8 sixteen-bit groups (handles `::`, an embedded dotted IPv4 tail and a zone id). */
function parseV6(ip: string): number[] | null {
  const bare = ip.split('%')[0];
  if (isIP(bare) !== 6) return null;
  let text = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = parseV4(dotted[1])!;
    text = text.slice(0, -dotted[1].length) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const [head, tail] = text.split('::');
  const toGroups = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const h = toGroups(head);
  const t = toGroups(tail);
  return tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 0 || // 0.0.0.0/8: "this network"; 0.0.0.0 reaches the local host on Linux
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) // CGNAT
  );
}

/**
 * True for loopback, private, link-local, unspecified and CGNAT addresses, in IPv4 or IPv6 form
 * (including IPv4-mapped / IPv4-compatible / NAT64 forms that embed one). Anything that is not an
 * IP address counts as private: the callers use this to decide what may be dialled, so fail closed.
 */
export function isPrivateAddress(ip: string): boolean {
  const v4 = parseV4(ip);
  if (v4) return isPrivateV4(v4);
  const g = parseV6(ip);
  if (!g) return true;
  const embedded = [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::/96 (covers :: and ::1 as 0.0.0.0 and 0.0.0.1), ::ffff:0:0/96, and NAT64 64:ff9b::/96 all
  // carry an IPv4 address that the OS or a gateway may end up dialling.
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return isPrivateV4(embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return isPrivateV4(embedded);
  return (g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80; // fc00::/7, fe80::/10
}

/** All addresses of `host` if every one is public, else null (an IP literal is its own answer). */
async function resolvePublic(host: string): Promise<dns.LookupAddress[] | null> {
  const literal = isIP(host);
  const addrs = literal ? [{ address: host, family: literal }] : await dns.promises.lookup(host, { all: true });
  return addrs.length > 0 && !addrs.some((a) => isPrivateAddress(a.address)) ? addrs : null;
}

/** URL.hostname keeps the brackets of an IPv6 literal; DNS and isIP want them gone. */
const hostOf = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, '$1');

function parseHttpUrl(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/** Whether `url` is http(s) and its host is, and resolves only to, public addresses. */
export async function checkPublicUrl(url: string): Promise<boolean> {
  const u = parseHttpUrl(url);
  if (!u) return false;
  try {
    return (await resolvePublic(hostOf(u))) !== null;
  } catch {
    return false;
  }
}

// net/tls call this for every new connection of the guarded agent. Vetting here and handing back
// the very addresses we vetted is what closes the rebinding window. Node 20's happy-eyeballs asks
// with `all: true` and wants the list; older callers want one address.
const vettedLookup: LookupFunction = (hostname, options, callback) => {
  resolvePublic(hostname).then(
    (addrs) => {
      const fam = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = addrs?.filter((a) => !fam || a.family === fam) ?? [];
      if (usable.length === 0) {
        const err: NodeJS.ErrnoException = new Error(`refusing non-public address for ${hostname}`);
        err.code = 'EPRIVATEADDRESS';
        return callback(err, '', 4);
      }
      if (options.all) callback(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    },
    (err: NodeJS.ErrnoException) => callback(err, '', 4),
  );
};

// Shared agents keep connection pooling; pooled sockets of the guarded one were vetted when made.
const guardedAgent = new Agent({ connect: { lookup: vettedLookup } });
const openAgent = new Agent();

/** Performs one outbound call. Never throws: failures map to status 'TIMEOUT' or 'ERROR'. */
export async function performHttpCall(req: HttpCallRequest, opts: HttpCallOptions): Promise<HttpAnswer> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const u = parseHttpUrl(req.url);
  if (!u) return ERROR;
  // IP literals never go through a DNS lookup, so the agent's hook would not see them: check here.
  const host = hostOf(u);
  if (!opts.allowPrivateNetwork && isIP(host) && isPrivateAddress(host)) return ERROR;

  const ac = new AbortController();
  // One deadline covers DNS, connect, headers and the whole body (a stalled body must time out too).
  const timer = setTimeout(() => ac.abort(), req.timeoutMs);
  try {
    const noBody = /^(GET|HEAD)$/i.test(req.method);
    const res = await fetch(u, {
      method: req.method,
      headers: req.headers,
      // fetch rejects any body on GET/HEAD; a template that yields one there is dropped, not fatal.
      body: noBody ? null : req.body,
      // Following redirects would let a public URL bounce us to a private one; the simplest safe
      // choice is to not follow them and hand the 3xx status to the bot as is.
      redirect: 'manual',
      signal: ac.signal,
      dispatcher: opts.allowPrivateNetwork ? openAgent : guardedAgent,
    });
    if (!res.body) return { status: res.status, body: '' };
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Cancelling drops the connection, so an endless body costs us at most maxBytes.
        reader.cancel().catch(() => {});
        return ERROR;
      }
      chunks.push(value);
    }
    return { status: res.status, body: Buffer.concat(chunks).toString('utf8') };
  } catch {
    return ac.signal.aborted ? TIMEOUT : ERROR;
  } finally {
    clearTimeout(timer);
  }
}
