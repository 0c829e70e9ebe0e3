// The invitation e-mail (issue 37 item 5): plain words saying who invited whom to which account,
// the one-time link and when it expires, sent through the mail port (shared/mail.ts) when SMTP is
// configured. A failed or slow send is logged and reported, never thrown: the admin has the link
// in the answer anyway and sends it themselves.
import type { MailConfig } from '../config.js';
import type { Mailer } from '../shared/mail.js';
import type { OperatorRecord } from './model.js';
import type { OperatorContext } from './sessions.js';

export interface Invitation {
  ctx: OperatorContext;
  invited: OperatorRecord;
  link: string;
  expiresAt: number;
}

/** Names go into one line of text: no line breaks or other control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a one-line name must lose
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export function invitationText({ ctx, invited, link, expiresAt }: Invitation): { subject: string; text: string } {
  const inviter = oneLine(ctx.operator.name);
  const account = oneLine(ctx.account.name);
  const expires = new Date(expiresAt)
    .toISOString()
    .replace('T', ' ')
    .replace(/:\d\d\.\d+Z$/, ' UTC');
  const greeting = invited.name !== invited.email ? `Hello ${oneLine(invited.name)},` : 'Hello,';
  return {
    subject: `${inviter} invited you to ${account} on Colloquy`,
    text: [
      greeting,
      '',
      `${inviter} (${ctx.operator.email}) invited you to the team of ${account} on Colloquy, as ${invited.role}, with this e-mail address: ${invited.email}.`,
      '',
      'Choose your password through this link (it works once):',
      link,
      '',
      `The link expires on ${expires}. If you did not expect this invitation, ignore this e-mail: nothing happens without the link.`,
      '',
    ].join('\n'),
  };
}

export class InvitationMail {
  constructor(private readonly deps: { mailer: Mailer; settings: () => MailConfig | null | undefined; log: (line: string) => void }) {}

  /** True when the SMTP server accepted the e-mail; false when no SMTP is configured or it failed (logged). */
  async send(invitation: Invitation): Promise<boolean> {
    if (!this.deps.settings()) return false;
    try {
      await this.deps.mailer.send({ to: invitation.invited.email, ...invitationText(invitation) });
      return true;
    } catch (error) {
      this.deps.log(`invitation e-mail for operator ${invitation.invited.id} not sent (the admin has the link to send): ${(error as Error).message}`);
      return false;
    }
  }
}
