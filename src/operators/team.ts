// Teammates, managed by an account's admins in the console (issue 37 item 5): invite (a one-time
// link the admin sends; the invited person chooses their password there), change roles, remove.
// An account always keeps an admin: the last one can be neither demoted nor removed, and nobody
// removes themselves. A link's token is shown once; only its SHA-256 is stored. With SMTP
// configured the link is also e-mailed (invitation-mail.ts), once, after the invitation is stored.
import crypto from 'node:crypto';
import { hashPassword } from '../shared/passwords.js';
import type { Clock } from '../shared/clock.js';
import type { InvitationMail } from './invitation-mail.js';
import { AppError } from '../shared/errors.js';
import type { TeamStorage } from './port.js';
import type { OperatorRecord } from './model.js';
import type { OperatorRole } from './model.js';
import type { OperatorContext } from './sessions.js';
import { DAY_MS } from '../shared/durations.js';

/** How long an invitation link works. */
export const INVITE_DAYS = 7;
/** An invited operator's password hash: no password verifies against it (shared/passwords.ts). */
const NO_PASSWORD = 'invited';

export interface TeammateView {
  OperatorId: string;
  Email: string;
  Name: string;
  Role: OperatorRole;
  /** invited and not yet signed up through their link */
  Invited: boolean;
}

/** An invitation as the admin sees it: the link to send, and whether it was e-mailed already. */
export interface InvitationView {
  teammate: TeammateView;
  link: string;
  emailed: boolean;
}

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export class Team {
  /** `linkOf`: the page a token opens (the public URL is known only once the server listens). */
  constructor(private readonly deps: { store: TeamStorage; clock: Clock; mail: InvitationMail; linkOf: (token: string) => string }) {}

  async list(ctx: OperatorContext): Promise<TeammateView[]> {
    return (await this.deps.store.operators.ofAccount(ctx.account.id)).map((o) => view(o, o.passwordHash === NO_PASSWORD));
  }

  /** A new operator with no password, and the token of their link (shown to the admin once). */
  async invite(ctx: OperatorContext, input: { email: string; name?: string; role: OperatorRole }): Promise<InvitationView> {
    const email = input.email.trim().toLowerCase();
    const operator: OperatorRecord = {
      id: crypto.randomUUID(),
      accountId: ctx.account.id,
      email,
      name: input.name?.trim() || email,
      passwordHash: NO_PASSWORD,
      role: input.role,
      createdAt: this.deps.clock.now(),
    };
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = this.deps.clock.now() + INVITE_DAYS * DAY_MS;
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.operators.insert(operator))) throw new AppError('CONFLICT', 'This account already has an operator with this e-mail.');
      await tx.operators.setInvite(operator.id, tokenHash(token), expiresAt);
    });
    return this.sent(ctx, operator, token, expiresAt);
  }

  /** A new link for someone who has not signed up yet (the old link stops working). */
  async reinvite(ctx: OperatorContext, operatorId: string): Promise<InvitationView> {
    const operator = await this.teammate(ctx, operatorId);
    if (operator.passwordHash !== NO_PASSWORD) throw new AppError('CONFLICT', 'This teammate has signed up already.');
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = this.deps.clock.now() + INVITE_DAYS * DAY_MS;
    await this.deps.store.operators.setInvite(operator.id, tokenHash(token), expiresAt);
    return this.sent(ctx, operator, token, expiresAt);
  }

  /** E-mails a stored invitation's link (once: a failed send is reported, not retried). */
  private async sent(ctx: OperatorContext, invited: OperatorRecord, token: string, expiresAt: number): Promise<InvitationView> {
    const link = this.deps.linkOf(token);
    const emailed = await this.deps.mail.send({ ctx, invited, link, expiresAt });
    return { teammate: view(invited, true), link, emailed };
  }

  async setRole(ctx: OperatorContext, operatorId: string, role: OperatorRole): Promise<TeammateView> {
    const operator = await this.teammate(ctx, operatorId);
    if (operator.role === 'admin' && role !== 'admin') await this.keepAnAdmin(ctx, operator);
    const changed = await this.deps.store.operators.setRole(ctx.account.id, operatorId, role);
    if (!changed) throw new AppError('OPERATOR_NOT_FOUND');
    return view(changed, changed.passwordHash === NO_PASSWORD);
  }

  async remove(ctx: OperatorContext, operatorId: string): Promise<void> {
    if (operatorId === ctx.operator.id) throw new AppError('CONFLICT', 'You cannot remove yourself; ask another admin.');
    const operator = await this.teammate(ctx, operatorId);
    if (operator.role === 'admin') await this.keepAnAdmin(ctx, operator);
    if (!(await this.deps.store.operators.remove(ctx.account.id, operatorId))) throw new AppError('OPERATOR_NOT_FOUND');
  }

  /** Sets the password through a link; the link is used up whatever happens next. */
  async accept(token: string, password: string): Promise<{ Email: string }> {
    // The link first: a guessed token costs a lookup, not a password hash.
    const operatorId = await this.deps.store.operators.takeInvite(tokenHash(token), this.deps.clock.now());
    const operator = operatorId ? await this.deps.store.operators.byId(operatorId) : null;
    if (!operator || operator.passwordHash !== NO_PASSWORD) throw new AppError('INVITE_INVALID');
    await this.deps.store.operators.setPasswordHash(operator.id, await hashPassword(password));
    return { Email: operator.email };
  }

  private async teammate(ctx: OperatorContext, operatorId: string): Promise<OperatorRecord> {
    const operator = await this.deps.store.operators.byId(operatorId);
    if (!operator || operator.accountId !== ctx.account.id) throw new AppError('OPERATOR_NOT_FOUND');
    return operator;
  }

  private async keepAnAdmin(ctx: OperatorContext, leaving: OperatorRecord): Promise<void> {
    const admins = (await this.deps.store.operators.ofAccount(ctx.account.id)).filter((o) => o.role === 'admin' && o.id !== leaving.id && o.passwordHash !== NO_PASSWORD);
    if (admins.length === 0) throw new AppError('CONFLICT', 'The account must keep an admin who can sign in.');
  }
}

const view = (o: OperatorRecord, invited: boolean): TeammateView => ({ OperatorId: o.id, Email: o.email, Name: o.name, Role: o.role, Invited: invited });
