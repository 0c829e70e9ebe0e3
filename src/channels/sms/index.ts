// SMS through Twilio (channels-more.md): a Twilio number connected with the account's SID and
// Auth Token; incoming messages arrive form-encoded, signed with the Auth Token over the webhook
// URL and the sorted fields, and are answered with an empty TwiML `<Response/>`; replies are
// `Messages.json` calls made by the dispatcher (twilio.ts). Twilio's signature rule is a few lines
// of HMAC-SHA1, so no SDK.
import crypto from 'node:crypto';
import type { ReplyPart } from '../../engine/types.js';
import { AppError } from '../../shared/errors.js';
import type { ConnectForm } from '../messaging/connect-form.js';
import type { Credentials, InboundEvent, PlatformCall, SendResult } from '../messaging/model.js';
import { type Connected, type InboundAnswer, type InboundRequest, kindText, type MessagingPlatform, PAUSE_METHOD } from '../messaging/platform.js';
import { chooseOption } from './options.js';
import { renderSms } from './render.js';
import { checkAccount, sendMessage } from './twilio.js';

const ACCOUNT_SID = /^AC[0-9a-fA-F]{32}$/;
const E164 = /^\+[1-9]\d{1,14}$/;
const MAX_SECRET_LENGTH = 1024;
/** Twilio's answer to a message webhook: no reply in the response (replies are API calls). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
/** What Twilio's Advanced Opt-Out reports in `OptOutType`, as the broadcasts' opt-out variable. */
const OPT_OUT: Record<string, string> = { STOP: 'true', START: 'false' };

export class SmsPlatform implements MessagingPlatform {
  readonly channel = 'sms' as const;
  readonly connectForm: ConnectForm = {
    title: 'SMS (Twilio)',
    intro: 'You need a Twilio account with a phone number that can send and receive SMS (console.twilio.com).',
    fields: [
      { name: 'AccountSid', label: 'Account SID', help: 'Twilio console → Account info: the Account SID (AC…).', maxLength: 64 },
      { name: 'AuthToken', label: 'Auth token', help: 'Twilio console → Account info: the Auth Token.', secret: true, maxLength: 1024 },
      { name: 'From', label: 'Phone number', help: 'Your Twilio number in international form, such as +15551234567.', maxLength: 32 },
    ],
  };

  constructor(private readonly apiUrl: string) {}

  async connect(body: Record<string, unknown>): Promise<Connected> {
    for (const name of ['AccountSid', 'AuthToken', 'From']) {
      const value = body[name];
      if (value === undefined || value === null || value === '') throw new AppError('MISSING_FIELD', `${name} is required.`, { Field: name });
      if (typeof value !== 'string' || value.length > MAX_SECRET_LENGTH || /\s/.test(value))
        throw new AppError('INVALID_REQUEST', `${name} must be the value the Twilio console shows, without spaces.`);
    }
    const [accountSid, authToken, from] = [body.AccountSid, body.AuthToken, body.From] as string[];
    if (!ACCOUNT_SID.test(accountSid)) throw new AppError('INVALID_REQUEST', 'AccountSid must be the Account SID (AC followed by 32 hex digits).');
    if (!E164.test(from)) throw new AppError('INVALID_REQUEST', 'From must be the Twilio number in E.164 form (+15551234567).');
    const refused = await checkAccount(this.apiUrl, { accountSid, authToken });
    if (refused !== null) throw new AppError('CHANNEL_REJECTED', 'Twilio refused the Account SID and Auth Token.', { Description: refused });
    return { credentials: { accountSid, authToken, from }, account: from, reply: { Account: from } };
  }

  async disconnect(): Promise<void> {
    // The number's webhook lives in the Twilio console; the erased credentials and the dead path are enough.
  }

  /** `X-Twilio-Signature` = base64 HMAC-SHA1 (key: the Auth Token) of the URL, then each field's name and value, sorted by name. */
  verify(request: InboundRequest, credentials: Credentials): boolean {
    const sent = request.headers['x-twilio-signature'];
    if (typeof sent !== 'string' || request.url === undefined || !isForm(request)) return false;
    const fields = [...new URLSearchParams(request.rawBody.toString('utf8'))].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
    const hmac = crypto.createHmac('sha1', credentials.authToken).update(request.url);
    for (const [name, value] of fields) hmac.update(name).update(value);
    const expected = hmac.digest();
    const given = Buffer.from(sent, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  decode(request: InboundRequest): unknown {
    return isForm(request) ? Object.fromEntries(new URLSearchParams(request.rawBody.toString('utf8'))) : undefined;
  }

  answer(): InboundAnswer {
    return { contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML };
  }

  parse(body: unknown, _account: string | null, credentials: Credentials): InboundEvent[] {
    const f = body as Record<string, string>;
    const key = f.MessageSid || f.SmsSid;
    // Status callbacks (MessageStatus) ask nothing; another account's request is not this bot's.
    if (!key || f.AccountSid !== credentials.accountSid || f.MessageStatus !== undefined || !E164.test(f.From ?? '')) return [];
    const profile: Record<string, string> = { phone: f.From };
    const optOut = OPT_OUT[f.OptOutType ?? ''];
    if (optOut !== undefined) profile.broadcast_opt_out = optOut;
    const text = f.Body ?? '';
    const media = Number(f.NumMedia ?? '0') > 0 ? kindText(mediaKind(f.MediaContentType0 ?? '')) : kindText('message');
    return [{ key, userId: `sms:${f.From}`, kind: 'text', text: text.trim() === '' ? media : text, profile, messageId: key }];
  }

  choose(text: string, recent: ReplyPart[]): string | null {
    return chooseOption(text, recent);
  }

  render(parts: ReplyPart[], phone: string): PlatformCall[] {
    return renderSms(parts, phone);
  }

  send(call: PlatformCall, credentials: Credentials): Promise<SendResult> {
    if (call.method === PAUSE_METHOD) return Promise.resolve({ ok: true });
    const { To, Body } = call.params as { To: string; Body: string };
    return sendMessage(this.apiUrl, { accountSid: credentials.accountSid, authToken: credentials.authToken }, { To, From: credentials.from, Body });
  }
}

const isForm = (request: InboundRequest) => String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/** An MMS's first attachment by its MIME type, as the flow reads kinds. */
function mediaKind(type: string): string {
  const major = type.split('/')[0];
  return major === 'image' || major === 'video' || major === 'audio' ? major : 'file';
}
