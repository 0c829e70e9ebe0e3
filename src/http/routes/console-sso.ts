// The console's single sign-on (governance.md "Single sign-on"): whether an e-mail signs in
// through its provider (the sign-in page asks first), the start that sends the browser there, and
// the callback that comes back with a session cookie. The browser is sent back to /console in the
// end, with `?sso_error=<Code>` when it failed: the sign-in page says why (never a 5xx, no cookie).
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import { SESSION_HOURS } from '../../operators/sessions.js';
import { AppError } from '../../shared/errors.js';
import type { App } from '../app.js';
import type { Services } from '../services.js';
import { sessionCookie } from './console.js';

const EmailQuery = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) });
const tags = ['operator console'];

/** A redirect that is not kept, and whose address (it may hold a code) is not sent on. */
function redirect(reply: FastifyReply, location: string) {
  return reply.status(302).header('location', location).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
}

/** Back to the sign-in page with the failure's Code; anything but a refusal is logged and shown as one. */
function failed(reply: FastifyReply, error: unknown) {
  if (!(error instanceof AppError)) reply.log.error({ err: error }, 'single sign-on failed');
  const code = error instanceof AppError ? error.code : 'SSO_PROVIDER_REFUSED';
  return redirect(reply, `/console?sso_error=${encodeURIComponent(code)}`);
}

export function consoleSsoRoutes(app: App, s: Services): void {
  const signIn = { config: { limit: 'sign-in' as const } };

  app.get('/console/sso/check', { ...signIn, schema: { hide: true, tags, summary: 'Whether an e-mail signs in with single sign-on', querystring: EmailQuery } }, async (request) => ({
    Sso: await s.ssoSignIn.usesSso(request.query.email),
  }));

  app.get('/console/sso/start', { ...signIn, schema: { hide: true, tags, summary: "Send the browser to the e-mail's identity provider", querystring: EmailQuery } }, async (request, reply) => {
    try {
      return redirect(reply, await s.ssoSignIn.start(request.query.email));
    } catch (error) {
      return failed(reply, error);
    }
  });

  // The provider's answer comes in the query (code and state, or error); it is read as sent.
  app.get('/console/sso/callback', { ...signIn, schema: { hide: true, tags, summary: "The identity provider's answer: a session, or back to the sign-in page" } }, async (request, reply) => {
    const at = request.url.indexOf('?');
    try {
      const session = await s.ssoSignIn.finish(new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1)), request.ip);
      reply.header('set-cookie', sessionCookie(s, session.token, SESSION_HOURS * 3600));
      return redirect(reply, '/console');
    } catch (error) {
      return failed(reply, error);
    }
  });
}
