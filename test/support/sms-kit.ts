// Twilio's incoming-message webhook as Twilio sends it (twilio.com/docs/messaging/guides/webhook-request,
// "Webhooks security"): form-encoded fields, signed in `X-Twilio-Signature` with base64 HMAC-SHA1,
// key = the Auth Token, over the webhook URL followed by every field's name and value sorted by name.
import crypto from 'node:crypto';

export const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const AUTH_TOKEN = 'f2c7e9a1b3d5c7e9f1a3b5c7d9e1f3a5';
export const FROM = '+15005550006';

export function twilioSignature(url: string, fields: Record<string, string>, authToken = AUTH_TOKEN): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((acc, name) => acc + name + fields[name], url);
  return crypto.createHmac('sha1', authToken).update(data).digest('base64');
}

export class SmsMessages {
  private n = 0;

  nextSid = () => `SM${process.pid}${String(++this.n).padStart(32 - String(process.pid).length, '0')}`;

  /** An incoming SMS (or MMS with `media`) from `phone` to the connected number. */
  message(phone: string, body: string, extra: Record<string, string> = {}): Record<string, string> {
    const sid = this.nextSid();
    return {
      ToCountry: 'US',
      ToState: 'CA',
      SmsMessageSid: sid,
      NumMedia: '0',
      ToCity: '',
      FromZip: '',
      SmsSid: sid,
      FromState: 'CA',
      SmsStatus: 'received',
      FromCity: 'SAN FRANCISCO',
      Body: body,
      FromCountry: 'US',
      To: FROM,
      ToZip: '',
      NumSegments: '1',
      MessageSid: sid,
      AccountSid: ACCOUNT_SID,
      From: phone,
      ApiVersion: '2010-04-01',
      ...extra,
    };
  }
}
