// api.md "Administration": accounts and operators, with the admin token.
import { Type } from 'typebox';
import { accountView, PACKAGES, PLANS, usageView } from '../../accounts/service.js';
import { OPERATOR_ROLES } from '../../operators/model.js';
import { authed, type App } from '../app.js';
import type { Services } from '../services.js';
import { Account, AccountKey, AccountWithUsage, Operator } from '../wire-schemas.js';

const Plan = Type.Union(PLANS.map((p) => Type.Literal(p)));
const Packages = Type.Array(Type.Union(PACKAGES.map((p) => Type.Literal(p))), { maxItems: 10 });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Role = Type.Union(OPERATOR_ROLES.map((r) => Type.Literal(r)));
const AccountParams = Type.Object({ AccountId: Type.String({ maxLength: 64 }) });

export function adminRoutes(app: App, s: Services): void {
  const admin = { ...authed('admin'), schema: { tags: ['admin'], security: [{ bearer: [] }] } };

  app.post(
    '/admin/accounts',
    {
      ...admin,
      schema: { ...admin.schema, summary: 'Create an account', body: Type.Object({ Name, Plan, Packages: Type.Optional(Packages) }, { additionalProperties: false }), response: { 201: Account } },
    },
    async (request, reply) => {
      const { Name: name, Plan: plan, Packages: packages } = request.body;
      const account = await s.accounts.create({ name, plan, packages });
      return reply.status(201).send(accountView(account));
    },
  );

  app.patch(
    '/admin/accounts/:AccountId',
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: 'Change an account',
        params: AccountParams,
        body: Type.Object(
          {
            Name: Type.Optional(Name),
            Plan: Type.Optional(Plan),
            Packages: Type.Optional(Packages),
            AuditDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'days the audit log keeps its entries (default 365; docs/governance.md)' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Account },
        errors: ['ACCOUNT_NOT_FOUND'],
      },
    },
    async (request) => {
      const { Name: name, Plan: plan, Packages: packages, AuditDays: auditDays } = request.body;
      const account = await s.accounts.update(request.params.AccountId, { name, plan, packages });
      if (auditDays !== undefined) await s.audit.keepFor(account.id, auditDays);
      return accountView(account);
    },
  );

  app.get(
    '/admin/accounts/:AccountId',
    { ...admin, schema: { ...admin.schema, summary: "An account with this month's usage", params: AccountParams, response: { 200: AccountWithUsage }, errors: ['ACCOUNT_NOT_FOUND'] } },
    async (request) => {
      const account = await s.accounts.get(request.params.AccountId);
      return { ...accountView(account), AuditDays: await s.audit.keptFor(account.id), Usage: usageView(await s.accounts.usage(account.id)) };
    },
  );

  // Not in api.md: see docs/decisions.md "Credentials and tokens".
  app.post(
    '/admin/accounts/:AccountId/key',
    {
      ...admin,
      schema: { ...admin.schema, summary: 'Rotate the account API key (old key and its tokens stop working)', params: AccountParams, response: { 200: AccountKey }, errors: ['ACCOUNT_NOT_FOUND'] },
    },
    async (request) => s.accounts.rotateKey(request.params.AccountId),
  );

  app.post(
    '/admin/accounts/:AccountId/operators',
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: 'Create an operator for the console',
        description: 'Role: agent (conversations only; the default), designer (bots, knowledge, analytics; no conversations) or admin (everything). Name defaults to the e-mail.',
        params: AccountParams,
        body: Type.Object(
          { Email: Type.String({ format: 'email', maxLength: 254 }), Name: Type.Optional(Name), Password: Type.String({ minLength: 8, maxLength: 200 }), Role: Type.Optional(Role) },
          { additionalProperties: false },
        ),
        response: { 201: Operator },
        errors: ['ACCOUNT_NOT_FOUND', 'CONFLICT'],
      },
    },
    async (request, reply) => {
      const { Email, Name: name, Password, Role: role } = request.body;
      return reply.status(201).send(await s.operatorAdmin.addOperator(request.params.AccountId, { email: Email, name, password: Password, role }));
    },
  );

  app.patch(
    '/admin/accounts/:AccountId/operators/:OperatorId',
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: "Change an operator's role (effective on their next request)",
        params: Type.Object({ AccountId: Type.String({ maxLength: 64 }), OperatorId: Type.String({ maxLength: 64 }) }),
        body: Type.Object({ Role }, { additionalProperties: false }),
        response: { 200: Operator },
        errors: ['ACCOUNT_NOT_FOUND', 'OPERATOR_NOT_FOUND'],
      },
    },
    async (request) => s.operatorAdmin.setOperatorRole(request.params.AccountId, request.params.OperatorId, request.body.Role),
  );

  app.delete(
    '/admin/accounts/:AccountId/operators/:OperatorId',
    {
      ...admin,
      schema: {
        ...admin.schema,
        summary: 'Remove an operator (their console sessions end on every node)',
        params: Type.Object({ AccountId: Type.String({ maxLength: 64 }), OperatorId: Type.String({ maxLength: 64 }) }),
        response: { 204: { description: 'Removed', type: 'null' } },
        errors: ['ACCOUNT_NOT_FOUND', 'OPERATOR_NOT_FOUND'],
      },
    },
    async (request, reply) => {
      await s.operatorAdmin.removeOperator(request.params.AccountId, request.params.OperatorId);
      return reply.status(204).send(null);
    },
  );
}
