// The messaging channels' wire shapes shared by the account-token routes (routes/channels.ts) and
// their console twins (routes/console-channels.ts): the connect body, bounded once for every
// platform, and the console's settings listing with each platform's declared form.
import { Type } from 'typebox';
import { BoundedInteger } from './bounded-integers.js';
import { ChannelList } from './wire-schemas.js';

const Secret = Type.String({ minLength: 1, maxLength: 1024 });
/** Every platform's connect fields in one schema (each platform checks that its own are there). */
export const ConnectBody = Type.Object(
  {
    Token: Type.Optional(Type.String({ maxLength: 256, description: 'Telegram: the token BotFather gave' })),
    PhoneNumberId: Type.Optional(Type.String({ maxLength: 64, description: 'WhatsApp: the phone number id of the Meta app' })),
    AccessToken: Type.Optional(Type.String({ maxLength: 1024, description: 'WhatsApp: a system user access token' })),
    PageId: Type.Optional(Type.String({ maxLength: 64, description: "Messenger: the Facebook page's id" })),
    PageAccessToken: Type.Optional(Type.String({ maxLength: 1024, description: 'Messenger and Instagram: the page access token' })),
    AppSecret: Type.Optional(Secret),
    BotToken: Type.Optional(Type.String({ maxLength: 1024, description: "Slack: the Bot User OAuth Token (xoxb-…); Chatwoot: the agent bot's access token" })),
    SigningSecret: Type.Optional(Type.String({ maxLength: 1024, description: "Slack: the app's Signing Secret (Basic Information)" })),
    AccountSid: Type.Optional(Type.String({ maxLength: 64, description: 'SMS: the Twilio Account SID (AC…)' })),
    AuthToken: Type.Optional(Type.String({ maxLength: 1024, description: "SMS: the Twilio account's Auth Token" })),
    From: Type.Optional(Type.String({ maxLength: 32, description: 'SMS: the Twilio number, E.164 (+15551234567)' })),
    InstagramAccountId: Type.Optional(Type.String({ maxLength: 64, description: 'Instagram: the Instagram professional account id' })),
    BaseUrl: Type.Optional(Type.String({ maxLength: 512, description: 'Chatwoot: the installation, such as https://app.chatwoot.com' })),
    AccountId: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), BoundedInteger(1, Number.MAX_SAFE_INTEGER)], { description: 'Chatwoot: the account number (/app/accounts/<AccountId>)' })),
    InboxIds: Type.Optional(Type.Array(BoundedInteger(1, Number.MAX_SAFE_INTEGER), { maxItems: 100, description: 'Chatwoot: only these inboxes (default: every inbox the bot is connected to)' })),
    AppId: Type.Optional(Type.String({ maxLength: 64, description: "Teams: the Azure Bot's Microsoft App ID (a GUID)" })),
    AppPassword: Type.Optional(Type.String({ maxLength: 1024, description: "Teams: a client secret of the bot's app registration" })),
    TenantId: Type.Optional(Type.String({ maxLength: 64, description: 'Teams: the directory (tenant) id, for a single-tenant bot only' })),
    VerifyToken: Type.Optional(Type.String({ minLength: 8, maxLength: 256, description: 'WhatsApp and Messenger: generated when not given' })),
  },
  { additionalProperties: false },
);

const Listed = ChannelList.properties.Result.items;
const FormField = Type.Object({
  Name: Type.String({ description: 'the member of the connect body' }),
  Label: Type.String(),
  Help: Type.String(),
  Secret: Type.Boolean({ description: 'typed into a password field and never shown back' }),
  Optional: Type.Boolean(),
  Kind: Type.String({ description: 'text, url or numbers (comma-separated whole numbers)' }),
  MaxLength: Type.Integer(),
});
/** The console's channel settings: each messaging channel's state, URLs to paste and connect form. */
export const ChannelSettingsList = Type.Object({
  Result: Type.Array(
    Type.Object({
      ...Listed.properties,
      Title: Type.String({ description: "the platform's name as people know it" }),
      MoreUrls: Type.Array(Type.Object({ Label: Type.String(), Help: Type.String(), Url: Type.String() }), { description: "Slack's interactivity URL" }),
      Form: Type.Union([Type.Object({ Intro: Type.String(), Fields: Type.Array(FormField) }), Type.Null()], { description: 'null: this platform connects through the API only' }),
    }),
  ),
});
