// Outbound HTTP for the `callApi` action (and, later, webhooks). Bot authors choose the URL, so
// this is an SSRF surface: unless the operator allows private networks, every address a request
// connects to must be public. The check lives inside the connection's own DNS lookup, so the
// address we vet is the address we dial (no DNS-rebinding window between check and connect).

import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { isIP, type LookupFunction } from 'node:net';
import type { ReadableStream } from 'node:stream/web';
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

/** What one outbound answer may weigh (callApi and AI providers alike): docs/limits.md. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
const ERROR: HttpAnswer = { status: 'ERROR', body: '' };
const TIMEOUT: HttpAnswer = { status: 'TIMEOUT', body: '' };

/** A v4 address is dialable when ipaddr.js files it under no special-purpose range at all. */
const publicV4 = (v4: ipaddr.IPv4): boolean => v4.range() === 'unicast';

/** The four bytes of `parts[i]` and `parts[i + 1]` as an IPv4 address. */
const v4At = (parts: number[], i: number) => new ipaddr.IPv4([parts[i] >> 8, parts[i] & 0xff, parts[i + 1] >> 8, parts[i + 1] & 0xff]);

function publicV6(v6: ipaddr.IPv6): boolean {
  const p = v6.parts;
  switch (v6.range()) {
    // Forms that carry an IPv4 address some OS or gateway ends up dialling: judge that address.
    case 'ipv4Mapped': // ipaddr.js also files the dotted `::a.b.c.d` form here
      return publicV4(v6.toIPv4Address());
    case 'rfc6052':
      // 64:ff9b::/96 embeds the v4 in the last 32 bits; the local-use 64:ff9b:1::/48 (RFC 8215)
      // may embed it anywhere, for a gateway of the operator's own: refused whole.
      return p[2] === 0 && publicV4(v4At(p, 6));
    case '6to4':
      return publicV4(v4At(p, 1));
    case 'teredo':
      // server at bits 32-63, client (bit-inverted) in the last 32 bits
      return (
        publicV4(v4At(p, 2)) &&
        publicV4(
          v4At(
            p.map((x) => ~x & 0xffff),
            6,
          ),
        )
      );
    case 'unicast':
      // Only 2000::/3 is allocated for global unicast; ::/96 (IPv4-compatible, deprecated) and the
      // rest are unassigned or reserved, so none of it is a place a bot may call.
      return (p[0] & 0xe000) === 0x2000;
    default:
      return false;
  }
}

/**
 * True for every address a bot must not reach: whatever ipaddr.js does not class as plain
 * `unicast` (loopback, private, link-local, unique-local, site-local, multicast, broadcast,
 * CGNAT, reserved, documentation, benchmarking, RFC 6145...), and IPv6 forms embedding such an
 * IPv4 address. Anything that is not an IP address counts as private: the callers use this to
 * decide what may be dialled, so fail closed.
 */
export function isPrivateAddress(ip: string): boolean {
  // net.isIP is the strict gate (ipaddr.js alone also accepts "0x7f.1" and other legacy forms).
  const family = isIP(ip);
  if (family === 0) return true;
  try {
    return family === 4 ? !publicV4(ipaddr.IPv4.parse(ip)) : !publicV6(ipaddr.IPv6.parse(ip));
  } catch {
    return true;
  }
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

/** The connection pool for outbound calls: with the address guard unless private networks are allowed. */
export const outboundDispatcher = (allowPrivateNetwork: boolean): Agent => (allowPrivateNetwork ? openAgent : guardedAgent);

/** Whether the URL names a private IP literal (the guarded agent's DNS hook never sees those). */
export function isPrivateLiteralUrl(url: string): boolean {
  const u = parseHttpUrl(url);
  if (!u) return false;
  const host = hostOf(u);
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/** Performs one outbound call. Never throws: failures map to status 'TIMEOUT' or 'ERROR'. */
export async function performHttpCall(req: HttpCallRequest, opts: HttpCallOptions): Promise<HttpAnswer> {
  const maxBytes = opts.maxBytes ?? MAX_RESPONSE_BYTES;
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
    const body = await readCapped(res.body, maxBytes);
    return body === null ? ERROR : { status: res.status, body: body.toString('utf8') };
  } catch {
    return ac.signal.aborted ? TIMEOUT : ERROR;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A response body read as it arrives, or null as soon as it passes `maxBytes`: the rest is never
 * read, and cancelling drops the connection, so an endless (or decompressed-to-huge) body costs at
 * most `maxBytes` of memory. The bytes counted are the decoded ones undici hands over.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer | null> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
