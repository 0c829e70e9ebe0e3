// The operators' side: console sessions, the console's views and intents, its workspace and inbox,
// the team, what web visitors tell operators, share links' pages, which bots an operator may open.
import type { AuditLog } from '../audit/service.js';
import type { ControlService } from '../conversations/control-service.js';
import type { EventBus } from '../conversations/events.js';
import type { ConversationService } from '../conversations/service.js';
import { ConsoleBots } from '../operators/console-bots.js';
import { ConsoleInbox } from '../operators/console-inbox.js';
import { ConsoleService } from '../operators/console-service.js';
import { ConsoleWorkspace } from '../operators/console-workspace.js';
import { OperatorSessions } from '../operators/sessions.js';
import { SsoSettings, type SsoAudit } from '../operators/sso-settings.js';
import { SsoSignIn } from '../operators/sso-sign-in.js';
import { ShareAccess } from '../operators/share-access.js';
import type { ShareService } from '../operators/share-service.js';
import { Team } from '../operators/team.js';
import { InvitationMail } from '../operators/invitation-mail.js';
import { smtpMailer } from '../shared/mail.js';
import type { Config } from '../config.js';
import { WebVisitorPanel } from '../operators/web-visitors.js';
import type { StartOptions, WiringBase } from './base.js';
import { withoutTrailingSlashes } from '../shared/trailing-slashes.js';

export function consoleParts(
  { store, clock, config, options }: WiringBase,
  deps: { events: EventBus; control: ControlService; conversations: ConversationService; shares: ShareService; audit: AuditLog },
) {
  const { events, control, conversations, shares } = deps;
  const consoleService = new ConsoleService({ store, control, conversations, events, clock });
  const operatorSessions = new OperatorSessions(store, clock);
  // A single sign-on's outcome goes to the audit log as every sign-in does (governance.md "Audit log").
  const audit: SsoAudit = (entry) =>
    void deps.audit.signIn({
      method: 'sso',
      email: entry.email ?? '',
      ok: entry.ok,
      ip: entry.ip,
      ...(entry.accountId !== null ? { accountId: entry.accountId } : {}),
      ...(entry.ok ? { details: { Created: entry.created, Role: entry.role, RoleChanged: entry.roleChanged } } : { reason: entry.code }),
    });
  const allowPrivateNetwork = config.allowPrivateNetwork;
  return {
    operatorSessions,
    ssoSettings: new SsoSettings({ store, clock, allowPrivateNetwork }),
    ssoSignIn: new SsoSignIn({ store, sessions: operatorSessions, clock, allowPrivateNetwork, audit, callbackUrl: () => `${withoutTrailingSlashes(config.publicUrl)}/console/sso/callback` }),
    console: consoleService,
    consoleBots: new ConsoleBots(store),
    workspace: new ConsoleWorkspace({ store, console: consoleService, control, events, clock }),
    inbox: new ConsoleInbox({ store, console: consoleService, control, clock }),
    team: new Team({ store, clock, mail: invitationMail(config, options), linkOf: (token) => `${withoutTrailingSlashes(config.publicUrl)}/console/team#invite=${token}` }),
    webVisitors: new WebVisitorPanel({ store, console: consoleService, clock }),
    shareAccess: new ShareAccess({ store, shares, control, conversations, events, clock }),
  };
}

/** Invitation links by e-mail when COLLOQUY_SMTP_URL is set; read at each send (config.ts `mail`). */
function invitationMail(config: Config, options: StartOptions): InvitationMail {
  return new InvitationMail({ mailer: smtpMailer(() => config.mail), settings: () => config.mail, log: (line) => options.log?.(line) });
}
