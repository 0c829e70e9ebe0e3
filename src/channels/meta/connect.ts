// Connecting WhatsApp or Messenger (channels.md "Connecting a bot"): nothing is called at Meta —
// the user pastes WebhookUrl and VerifyToken into the app dashboard — so connecting is checking
// the body and keeping its secrets.
import crypto from 'node:crypto';
import { AppError } from '../../shared/errors.js';
import type { ConnectField, ConnectForm } from '../messaging/connect-form.js';
import type { Connected } from '../messaging/platform.js';

/** Graph object ids (phone number ids, page ids) are decimal numbers. */
const GRAPH_ID = /^\d{1,32}$/;
const MAX_SECRET_LENGTH = 1024;
/** What a user may choose as verify token: printable, no spaces, so it pastes cleanly. */
const VERIFY_TOKEN_SHAPE = /^[\x21-\x7e]{8,256}$/;

export interface MetaConnectFields {
  /** the public id of the bot's side: `PhoneNumberId` or `PageId` */
  account: string;
  /** the bearer token field: `AccessToken` or `PageAccessToken` */
  token: string;
}

/** Credentials kept for a Meta channel: the bearer token, the app secret, the verify token. */
export interface MetaCredentials {
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  [key: string]: string;
}

/** The form of a Meta channel: its account id and token fields, then the app secret and the optional verify token. */
export function metaConnectForm(title: string, intro: string, account: ConnectField, token: ConnectField): ConnectForm {
  return {
    title,
    intro,
    fields: [
      account,
      token,
      { name: 'AppSecret', label: 'App secret', help: 'In the Meta app: App settings → Basic → App secret.', secret: true, maxLength: MAX_SECRET_LENGTH },
      {
        name: 'VerifyToken',
        label: 'Verify token',
        help: 'Any 8 to 256 characters without spaces, or leave empty and one is made; paste it into the webhook settings with the webhook URL.',
        secret: true,
        optional: true,
        maxLength: 256,
      },
    ],
  };
}

export function connectMeta(body: Record<string, unknown>, fields: MetaConnectFields): Connected {
  const accountId = body[fields.account];
  const token = body[fields.token];
  const appSecret = body.AppSecret;
  for (const name of [fields.account, fields.token, 'AppSecret']) {
    if (body[name] === undefined || body[name] === null || body[name] === '') throw new AppError('MISSING_FIELD', `${name} is required.`, { Field: name });
  }
  if (typeof accountId !== 'string' || !GRAPH_ID.test(accountId)) throw new AppError('INVALID_REQUEST', `${fields.account} must be the numeric id Meta shows in the app dashboard.`);
  if (typeof token !== 'string' || token.length > MAX_SECRET_LENGTH || /\s/.test(token)) throw new AppError('INVALID_REQUEST', `${fields.token} must be the access token, without spaces.`);
  if (typeof appSecret !== 'string' || appSecret.length > MAX_SECRET_LENGTH || /\s/.test(appSecret))
    throw new AppError('INVALID_REQUEST', 'AppSecret must be the app secret (App settings → Basic), without spaces.');
  let verifyToken = body.VerifyToken;
  if (verifyToken === undefined || verifyToken === null || verifyToken === '') {
    // 256 random bits; base64url stays within what the dashboard's field accepts.
    verifyToken = crypto.randomBytes(32).toString('base64url');
  } else if (typeof verifyToken !== 'string' || !VERIFY_TOKEN_SHAPE.test(verifyToken)) {
    throw new AppError('INVALID_REQUEST', 'VerifyToken must be 8 to 256 printable characters without spaces.');
  }
  const credentials: MetaCredentials = { accessToken: token, appSecret, verifyToken: verifyToken as string };
  return { credentials, account: accountId, reply: { VerifyToken: verifyToken as string } };
}
