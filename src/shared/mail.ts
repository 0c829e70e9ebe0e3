// The one way out for e-mail: a plain-text message to one address over SMTP (config.ts `mail`,
// docs/operations.md "E-mail"). Only this file knows nodemailer. A send is bounded in time (a
// hanging SMTP server must not hold the request that sends) and never retried: the caller learns
// whether it went out, and what it says when it did not carries no password.
import type { MailConfig } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects (with a password-free reason) otherwise. */
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP through nodemailer. The settings are read at each send and the transport is made for that
 * message alone: invitations are rare, and a connection per message leaves nothing open between them.
 */
export function smtpMailer(settings: () => MailConfig | null | undefined): Mailer {
  return {
    async send(message) {
      const config = settings();
      if (!config) throw new Error('no SMTP server is configured');
      const url = new URL(config.url);
      const password = decodeURIComponent(url.password);
      // loaded by the first message, not by every start of the server: invitations are rare
      const { default: nodemailer } = await import('nodemailer');
      const transport = nodemailer.createTransport({
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
        secure: url.protocol === 'smtps:',
        auth: url.username ? { user: decodeURIComponent(url.username), pass: password } : undefined,
        connectionTimeout: config.timeoutMs,
        greetingTimeout: config.timeoutMs,
        socketTimeout: config.timeoutMs,
        dnsTimeout: config.timeoutMs,
        // the message is text we wrote: it never names a file or URL for nodemailer to fetch
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      const late = `the SMTP server did not accept the message within ${config.timeoutMs / 1000} s`;
      let timer: NodeJS.Timeout | undefined;
      const overall = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(late)), config.timeoutMs);
      });
      try {
        await Promise.race([transport.sendMail({ from: config.from, to: message.to, subject: message.subject, text: message.text }), overall]);
      } catch (error) {
        // nodemailer's own timeouts (no greeting, a silent socket) read like the overall one
        const reason = (error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `${late} (${(error as Error).message})` : (error as Error).message;
        throw new Error(password ? reason.split(password).join('***') : reason);
      } finally {
        clearTimeout(timer);
        transport.close();
      }
    },
  };
}
