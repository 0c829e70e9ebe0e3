// A real SMTP server on 127.0.0.1 (smtp-server) for the invitation e-mail (COLLOQUY_SMTP_URL points
// at it): it checks the login (a wrong password is refused as a mail server would, 535) and keeps
// every message it accepted, decoded to plain text. Beside it, the two ways SMTP goes wrong:
// a port nobody listens on (connection refused) and a server that accepts and then never speaks.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './double-kit.js';

export interface ReceivedMail {
  /** the envelope's recipients */
  to: string[];
  /** the headers, names in lower case (unfolded) */
  headers: Record<string, string>;
  /** the body, transfer encoding undone */
  text: string;
}

export const SMTP_USER = 'colloquy';
export const SMTP_PASSWORD = 'smtp p@ss:word/1';

export class SmtpDouble {
  readonly mails: ReceivedMail[] = [];
  readonly refusedLogins: string[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpDouble> {
    let double!: SmtpDouble;
    const server = new SMTPServer({
      logger: false,
      // plain SMTP on loopback: no certificate to trust, and the login is allowed over it
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username });
        double.refusedLogins.push(auth.username ?? '');
        callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          double.mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parse(Buffer.concat(chunks).toString('utf8')) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    double = new SmtpDouble(server, (server.server.address() as AddressInfo).port);
    return double;
  }

  /** COLLOQUY_SMTP_URL for this server, with the right login or the one given. */
  url(password = SMTP_PASSWORD): string {
    return `smtp://${SMTP_USER}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  async mailTo(address: string): Promise<ReceivedMail> {
    await waitUntil(
      () => this.mails.some((m) => m.to.includes(address)),
      `an e-mail to ${address}`,
      () => this.mails.map((m) => m.to),
    );
    return this.mails.find((m) => m.to.includes(address))!;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A loopback port with nothing listening: connecting is refused at once. */
export async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An SMTP server that accepts the connection and never says hello. */
export async function hangingSmtp(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Headers and a 7bit or quoted-printable text body (what nodemailer sends for plain text). */
function parse(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { headers, text: body.replace(/\r\n/g, '\n') };
}
