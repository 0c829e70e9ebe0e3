// The one error catalogue: every failure the API can answer with has a stable code, an HTTP status
// and a default message here. docs/errors.md must list exactly these codes (a test checks it).

export const errorCatalogue = {
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  INVALID_REQUEST: { status: 400, message: 'The request does not match what this route accepts.' },
  MISSING_FIELD: { status: 400, message: 'A required field is missing.' },
  INVALID_BOT: { status: 400, message: 'The bot file is not valid.' },
  INVALID_DOCUMENT: { status: 400, message: 'The document is empty or cannot be read.' },
  // importers (importers.md): an upload that is no export of a known format, or a broken one
  IMPORT_UNSUPPORTED: { status: 400, message: 'This is not an export of a format Colloquy imports (Typebot, Rasa, Dialogflow ES), or of a schema version it does not read.' },
  IMPORT_INVALID: { status: 400, message: 'The export is broken or goes over an import limit.' },
  IMPORT_BUSY: { status: 503, message: 'Too many imports are waiting to be read; try again in a few seconds.' },
  LIMIT_EXCEEDED: { status: 400, message: 'The request would take the conversation over one of its limits.' },
  TOKEN_MISSING: { status: 401, message: 'No bearer token was sent.' },
  TOKEN_INVALID: { status: 401, message: 'The bearer token is not valid.' },
  TOKEN_EXPIRED: { status: 401, message: 'The bearer token has expired.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Wrong e-mail or password.' },
  TOKEN_SCOPE: { status: 403, message: 'This token may not be used for this request.' },
  PLAN_FORBIDDEN: { status: 403, message: "The account's plan does not include the integration API." },
  PACKAGE_REQUIRED: { status: 403, message: 'The account needs a package it does not have.' },
  USER_BANNED: { status: 403, message: 'This user is banned from the conversation.' },
  SHARE_READ_ONLY: { status: 403, message: 'This shared link only lets you watch the conversation.' },
  ORIGIN_FORBIDDEN: { status: 403, message: 'This origin may not use this bot.' },
  ROLE_FORBIDDEN: { status: 403, message: "The signed-in operator's role does not open this part of the console." },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  ACCOUNT_NOT_FOUND: { status: 404, message: 'No account has this key.' },
  BOT_NOT_FOUND: { status: 404, message: 'No such bot, or the secret is wrong.' },
  CONVERSATION_NOT_FOUND: { status: 404, message: 'No conversation with this user id.' },
  VERSION_NOT_FOUND: { status: 404, message: 'The bot has no such published version.' },
  BEHAVIOUR_NOT_FOUND: { status: 404, message: 'The bot has no behaviour with this name.' },
  SHARE_NOT_FOUND: { status: 404, message: 'No such shared conversation link.' },
  DELIVERY_NOT_FOUND: { status: 404, message: 'This bot has no such webhook delivery.' },
  OPERATOR_NOT_FOUND: { status: 404, message: 'No such operator.' },
  INVITE_INVALID: { status: 400, message: 'This invitation link is unknown, used already or expired: ask an admin for a new one.' },
  SOURCE_NOT_FOUND: { status: 404, message: 'The bot has no knowledge source with this id.' },
  BROADCAST_NOT_FOUND: { status: 404, message: 'The bot has no broadcast with this id.' },
  CANNED_RESPONSE_NOT_FOUND: { status: 404, message: 'The account has no canned response with this id.' },
  TEAM_NOT_FOUND: { status: 404, message: 'The account has no team with this id.' },
  CHANNEL_REJECTED: { status: 400, message: 'The messaging platform refused these credentials.' },
  SIGNATURE_INVALID: { status: 401, message: 'The request is not signed by the messaging platform.' },
  VERIFY_TOKEN_MISMATCH: { status: 403, message: 'The verify token does not match this channel.' },
  CHANNEL_MISMATCH: { status: 409, message: 'The conversation belongs to another channel.' },
  STATE_CONFLICT: { status: 409, message: 'The conversation is not in a state that allows this.' },
  BEHAVIOUR_LINKED: { status: 409, message: "This behaviour is linked to the master bot's content." },
  BROADCAST_ENDED: { status: 409, message: 'The broadcast has ended already.' },
  CONFLICT: { status: 409, message: 'This already exists.' },
  SHARE_EXPIRED: { status: 410, message: 'This shared conversation link has expired.' },
  VERSION_MISMATCH: { status: 412, message: 'The bot was changed since the version you sent in If-Match.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers (or the URL) are larger than 16 KB.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send JSON (or YAML for bot files).' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  TRAINING_LIMIT: { status: 422, message: "Training the intent model went over the server's memory or time limit." },
  CONVERSATION_FORGETTING: { status: 423, message: 'The conversation is being forgotten.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests for this token; slow down.' },
  // Agents' secrets and MCP servers (agents.md "Secrets", "MCP servers"; issue 39)
  SECRET_LIMIT: { status: 400, message: 'The bot has as many secrets as it may have.' },
  MCP_SERVER_LIMIT: { status: 400, message: 'The bot has as many MCP servers as it may have.' },
  MCP_UNREACHABLE: { status: 400, message: 'The URL does not answer as an MCP server (Streamable HTTP).' },
  // Approvals of agents' tool calls (agents.md "Tools")
  APPROVAL_NOT_FOUND: { status: 404, message: 'The bot has no approval with this id.' },
  APPROVAL_DECIDED: { status: 409, message: 'This approval was decided already.' },
  APPROVAL_ARGUMENTS_INVALID: { status: 400, message: "The edited arguments do not fit the tool's parameters." },
  INTERNAL: { status: 500, message: 'Something went wrong on our side.' },
  UNAVAILABLE: { status: 503, message: 'The database does not answer.' },
  TRAINING_BUSY: { status: 503, message: 'Too many intent models are waiting to be trained; try again in a few seconds.' },
  BOT_FILE_BUSY: { status: 503, message: 'Too many large bot files are waiting to be read; try again in a few seconds.' },
  KNOWLEDGE_BUSY: { status: 503, message: 'Too many documents are waiting to be indexed; try again in a few seconds.' },
  // Console single sign-on (issue 42, governance.md "Single sign-on"). The sign-in flow's codes
  // reach the browser as `/console?sso_error=<Code>`, and the sign-in page explains each.
  SSO_NOT_CONFIGURED: { status: 404, message: 'This account has no single sign-on settings.' },
  SSO_DISCOVERY_FAILED: { status: 400, message: "The identity provider's discovery document could not be loaded." },
  SSO_REQUIRED: { status: 401, message: 'This account signs in with single sign-on only: sign in with your company account.' },
  SSO_STATE_INVALID: { status: 401, message: 'This sign-in link is unknown, used already or expired: start again.' },
  SSO_PROVIDER_REFUSED: { status: 401, message: 'The identity provider did not sign you in.' },
  SSO_TOKEN_INVALID: { status: 401, message: "The identity provider's answer could not be verified." },
  SSO_EMAIL_REFUSED: { status: 403, message: 'This e-mail address may not sign in to this account.' },
  SSO_NO_OPERATOR: { status: 403, message: 'This account has no operator with this e-mail address; ask an admin to add you.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** A failure meant for the client: thrown anywhere, turned into `{Code, Message, ...extra}` by http/. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, extra: Record<string, unknown> = {}) {
    super(message ?? errorCatalogue[code].message);
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.extra = extra;
  }

  toBody(): Record<string, unknown> {
    return { Code: this.code, Message: this.message, ...this.extra };
  }
}
