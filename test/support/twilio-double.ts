// A stand-in for Twilio's REST API on 127.0.0.1, written from twilio.com/docs: `GET
// /2010-04-01/Accounts/{Sid}.json` (the account) and `POST /2010-04-01/Accounts/{Sid}/Messages.json`
// (form fields To, From, Body; 201 with the message resource), HTTP basic auth with the Account SID
// and Auth Token, errors as `{code, message, more_info, status}`. Every message is checked: a
// Body of 1 to 1,600 characters, E.164 numbers, From = the connected number; a call Twilio would
// refuse is recorded in `violations` (and answered 400 code 21602).
import type http from 'node:http';
import { ScriptedDouble } from './double-kit.js';

export interface TwilioCall {
  path: string;
  form: Record<string, string>;
  status: number;
  at: number;
}

const E164 = /^\+[1-9]\d{1,14}$/;

export class TwilioDouble extends ScriptedDouble<TwilioCall> {
  protected readonly platform = 'Twilio';
  private sid = 0;

  private constructor(
    readonly accountSid: string,
    readonly authToken: string,
    readonly from: string,
  ) {
    super();
  }

  /** Listens on loopback; `url` is then COLLOQUY_TWILIO_API_URL. */
  static start(accountSid: string, authToken: string, from: string): Promise<TwilioDouble> {
    return new TwilioDouble(accountSid, authToken, from).listen();
  }

  protected describe(c: TwilioCall): unknown {
    return [c.status, c.form.To, c.form.Body?.slice(0, 60)];
  }

  /** Bodies Twilio accepted for one number, in order. */
  bodiesTo(phone: string): string[] {
    return this.calls.filter((c) => c.status === 201 && c.form.To === phone).map((c) => c.form.Body);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      const error = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
        json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);
      const base = `/2010-04-01/Accounts/${this.accountSid}`;
      if (req.headers.authorization !== `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`) {
        this.calls.push({ path, form, status: 401, at: Date.now() });
        return error(401, 20003, 'Authenticate');
      }
      if (req.method === 'GET' && path === `${base}.json`) {
        this.calls.push({ path, form, status: 200, at: Date.now() });
        return json(200, { sid: this.accountSid, friendly_name: 'Shop', status: 'active', type: 'Full' });
      }
      if (req.method !== 'POST' || path !== `${base}/Messages.json`) return error(404, 20404, 'The requested resource was not found');
      const problems = checkMessage(form, this.from);
      const answer = problems.length > 0 ? 'invalid' : (this.script.shift() ?? 'ok');
      const status = answer === 'ok' ? 201 : answer === 'rate-limit' ? 429 : answer === 'server-error' ? 500 : answer === 'invalid' ? 400 : 0;
      this.violations.push(...problems.map((p) => `${p} in ${JSON.stringify(form)}`));
      this.calls.push({ path, form, status, at: Date.now() });
      if (answer === 'hang') return void this.hanging.push(res);
      if (answer === 'rate-limit') return error(429, 20429, 'Too Many Requests', { 'retry-after': String(this.retryAfterSeconds) });
      if (answer === 'server-error') return error(500, 20500, 'Internal Server Error');
      if (answer === 'invalid') return error(400, 21602, problems.join('; '));
      return json(201, {
        sid: `SM${String(++this.sid).padStart(32, '0')}`,
        account_sid: this.accountSid,
        to: form.To,
        from: form.From,
        body: form.Body,
        status: 'queued',
        num_segments: String(Math.ceil(form.Body.length / 153)),
      });
    });
  }
}

/** What Twilio would refuse in a Messages.json create (twilio.com/docs/messaging/api/message-resource). */
function checkMessage(form: Record<string, string>, from: string): string[] {
  const problems: string[] = [];
  if (!E164.test(form.To ?? '')) problems.push(`To ${form.To} is not E.164`);
  if (form.From !== from) problems.push(`From ${form.From} is not the connected number`);
  if (typeof form.Body !== 'string' || form.Body.trim() === '' || form.Body.length > 1600) problems.push(`Body must be 1-1600 characters (${form.Body?.length})`);
  const known = ['To', 'From', 'Body', 'MediaUrl', 'StatusCallback'];
  for (const name of Object.keys(form)) if (!known.includes(name)) problems.push(`unknown parameter ${name}`);
  return problems;
}
