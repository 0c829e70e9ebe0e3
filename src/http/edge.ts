// What every response and request meets at the edge, whatever the route: security headers, the
// cross-site guard of the cookie- and link-authenticated routes, early answers to
// `Expect: 100-continue`, and a request log line that carries no personal data.
import crypto from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, errorCatalogue } from '../shared/errors.js';

/** Pages without a policy of their own may run nothing, load nothing and be framed by no one. */
const DEFAULT_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      if (!reply.hasHeader('content-security-policy')) reply.header('Content-Security-Policy', DEFAULT_PAGE_POLICY);
      reply.header('X-Frame-Options', 'DENY');
      if (!reply.hasHeader('referrer-policy')) reply.header('Referrer-Policy', 'no-referrer');
    }
    return payload;
  });
}

/**
 * What authenticates a route when a browser sends it by itself, without the page asking: the
 * console's session cookie, or a share link's code in the URL. A route that takes one says so in
 * its config (`ambientCredential`), and the cross-site guard keys on that mark, never on the URL
 * as sent: the router decodes `%61pi`, so no spelling of a path reaches a marked route unguarded.
 */
export type AmbientCredential = 'session' | 'share-link';

declare module 'fastify' {
  interface FastifyContextConfig {
    ambientCredential?: AmbientCredential;
  }
}

/** Every route under these paths takes an ambient credential (or signs in): unmarked, the server does not start. */
const AMBIENT_CREDENTIAL_PATHS = /^\/(console\/api|share)\//;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery: a page on another origin (another port of the same host is
 * same-site, so SameSite cookies alone do not stop it) may not change anything through the
 * console or a share link. Browsers send Origin on every POST and Sec-Fetch-Site on every request;
 * either one naming another origin is refused. Clients that are not browsers send neither and
 * carry no ambient credential of a victim.
 */
export function installCrossSiteGuard(app: FastifyInstance, publicUrl: () => string): void {
  // Checked as each route is registered: a new console or share route that forgot its mark fails
  // the server's start, not a security review.
  app.addHook('onRoute', (route) => {
    if (AMBIENT_CREDENTIAL_PATHS.test(route.url ?? route.path) && !route.config?.ambientCredential) {
      throw new Error(`${String(route.method)} ${route.url}: routes under /console/api/ and /share/ must set config.ambientCredential (src/http/edge.ts)`);
    }
  });
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.routeOptions.config?.ambientCredential) return;
    const site = request.headers['sec-fetch-site'];
    if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') throw crossSite();
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request, publicUrl())) throw crossSite();
  });
}

/**
 * Called by whatever reads an ambient credential from a request, so that no route reads one
 * without the guard covering it: an unmarked route is a programming error and fails loudly.
 */
export function assertGuarded(request: FastifyRequest, credential: AmbientCredential): void {
  if (request.routeOptions.config?.ambientCredential !== credential) {
    throw new Error(`${request.method} ${request.routeOptions.url} reads a ${credential} credential without config.ambientCredential '${credential}'`);
  }
}

const crossSite = () => new AppError('ORIGIN_FORBIDDEN', 'Cross-site requests to the console and shared links are refused.');

function isOwnOrigin(origin: string, request: FastifyRequest, publicUrl: string): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and garbage
  }
  return host === request.headers.host || origin === new URL(publicUrl).origin;
}

/**
 * A client that sends `Expect: 100-continue` waits for our go-ahead before sending its body. When
 * Content-Length already says the body is over the route's limit, answer 413 now, before any byte
 * of it is sent, and close: otherwise the client starts sending, the early 413 is lost to a TCP
 * reset, and the client sees a broken connection instead of PAYLOAD_TOO_LARGE.
 */
export function answerExpectContinue(server: Server, limitFor: (method: string, url: string) => number): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > limitFor(request.method ?? 'GET', request.url ?? '/')) {
      const error = new AppError('PAYLOAD_TOO_LARGE');
      const body = JSON.stringify(error.toBody());
      response.writeHead(errorCatalogue.PAYLOAD_TOO_LARGE.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      response.end(body);
      return;
    }
    response.writeContinue();
    server.emit('request', request, response);
  });
}

/**
 * What the request line logs: the route's pattern (`/share/:code`, `/custom/values`), never the
 * URL as sent, whose path and query carry user ids, share codes and web keys.
 */
export function loggedRoute(request: FastifyRequest): string {
  return request.routeOptions.url ?? '(no route)';
}

/**
 * Requests Node's parser refuses before Fastify sees them (headers or URL over 16 KB, malformed
 * HTTP, a client too slow to send its headers) still get a JSON error from the catalogue.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT')
        : new AppError('INVALID_REQUEST', 'The request is not valid HTTP.');
  const body = JSON.stringify(appError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_TEXT[appError.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${sentRequestId(error) ?? crypto.randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The X-Request-Id the client sent, when it can be read from what the parser received. */
function sentRequestId(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): string | null {
  const raw = error.rawPacket?.toString('latin1').toLowerCase();
  const at = raw?.indexOf('\r\nx-request-id:') ?? -1;
  if (!raw || at < 0) return null;
  const end = raw.indexOf('\r\n', at + 2);
  const value = error.rawPacket!.toString('latin1', at + '\r\nx-request-id:'.length, end < 0 ? undefined : end).trim();
  return /^[\w.:-]{1,128}$/.test(value) ? value : null;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
