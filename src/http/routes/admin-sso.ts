// governance.md "Single sign-on": an account's OpenID Connect provider for the console, set by the
// server admin (admin token). The client secret is accepted, sealed, and never answered.
import { Type } from 'typebox';
import { ssoSettingsView } from '../../operators/sso-settings.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';

const Role = Type.Union([Type.Literal('agent'), Type.Literal('designer'), Type.Literal('admin')]);
const AccountParams = Type.Object({ AccountId: Type.String({ maxLength: 64 }) });
/** A host name: dot-separated labels of letters, digits and hyphens (no scheme, no @, no port); each group starts at its dot, so the match is linear. */
const Domain = Type.String({ minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$' });
const ClaimValue = Type.String({ minLength: 1, maxLength: 256 });

export const SsoSettingsBody = Type.Object(
  {
    Issuer: Type.String({ minLength: 8, maxLength: 2048, description: "The provider's issuer URL: its discovery document is <Issuer>/.well-known/openid-configuration" }),
    ClientId: Type.String({ minLength: 1, maxLength: 512 }),
    ClientSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Sealed at rest and never answered; required when Issuer or ClientId changes' })),
    Domains: Type.Array(Domain, { minItems: 1, maxItems: 50, description: 'E-mail domains that sign in through this provider (each in one account only)' }),
    DefaultRole: Type.Optional(Role),
    RoleClaim: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The ID token claim whose value (or list of values) RoleMap maps, e.g. groups' })),
    RoleMap: Type.Optional(Type.Record(ClaimValue, Role, { maxProperties: 100 })),
    AutoCreate: Type.Optional(Type.Boolean({ description: 'Make an operator on their first sign-in (default true)' })),
    RequireSso: Type.Optional(Type.Boolean({ description: 'Refuse password sign-in to the account (default false)' })),
  },
  { additionalProperties: false },
);

export const SsoSettingsReply = Type.Object({
  AccountId: Type.String(),
  Issuer: Type.String(),
  ClientId: Type.String(),
  Domains: Type.Array(Type.String()),
  DefaultRole: Role,
  RoleClaim: Type.Union([Type.String(), Type.Null()]),
  RoleMap: Type.Record(Type.String(), Role),
  AutoCreate: Type.Boolean(),
  RequireSso: Type.Boolean(),
  UpdatedAt: Type.String(),
});

export function adminSsoRoutes(app: App, s: Services): void {
  const admin = { ...authed('admin'), schema: { tags: ['admin'], security: [{ bearer: [] }] } };
  const path = '/admin/accounts/:AccountId/sso';

  app.put(
    path,
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: "Set the account's single sign-on (OpenID Connect) provider",
        description: "The issuer's discovery document must load (else 400 SSO_DISCOVERY_FAILED). The answer never holds ClientSecret.",
        params: AccountParams,
        body: SsoSettingsBody,
        response: { 200: SsoSettingsReply },
        errors: ['ACCOUNT_NOT_FOUND', 'SSO_DISCOVERY_FAILED', 'MISSING_FIELD', 'CONFLICT'],
      },
    },
    async (request) => ssoSettingsView(await s.ssoSettings.put(request.params.AccountId, request.body)),
  );

  app.get(
    path,
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: "The account's single sign-on settings (never the secret)",
        params: AccountParams,
        response: { 200: SsoSettingsReply },
        errors: ['ACCOUNT_NOT_FOUND', 'SSO_NOT_CONFIGURED'],
      },
    },
    async (request) => ssoSettingsView(await s.ssoSettings.get(request.params.AccountId)),
  );

  app.delete(
    path,
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: "Remove the account's single sign-on (passwords work again)",
        params: AccountParams,
        response: { 204: { description: 'Removed', type: 'null' } },
        errors: ['ACCOUNT_NOT_FOUND', 'SSO_NOT_CONFIGURED'],
      },
    },
    async (request, reply) => {
      await s.ssoSettings.remove(request.params.AccountId);
      return reply.status(204).send(null);
    },
  );
}
