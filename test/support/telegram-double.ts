// A stand-in for the Telegram Bot API on 127.0.0.1 (COLLOQUY_TELEGRAM_API_URL points at it): the
// methods Colloquy calls, each request checked against the Bot API's documented shape and limits
// (https://core.telegram.org/bots/api). A call that Telegram would refuse is answered 400 as
// Telegram does AND recorded in `violations`, which every test asserts is empty. It can answer
// 429 (with `retry_after`), 5xx, or hang, on demand.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  token: string;
  method: string;
  params: any;
  /** the status it was answered with */
  status: number;
  /** when it arrived (ms since the epoch) */
  at: number;
}

type Scripted = { status: 429; retryAfter: number } | { status: 500 | 502 } | { status: 403 } | { hang: true };

const SEND_MEDIA: Record<string, string> = { sendPhoto: 'photo', sendVideo: 'video', sendAudio: 'audio', sendDocument: 'document' };
const CHAT_ACTIONS = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);
const UPDATE_KINDS = new Set(['message', 'edited_message', 'channel_post', 'edited_channel_post', 'callback_query', 'inline_query', 'chosen_inline_result', 'my_chat_member', 'chat_member']);

export class TelegramDouble {
  readonly calls: TelegramCall[] = [];
  readonly violations: string[] = [];
  /** tokens Telegram knows, with the bot's username */
  readonly bots = new Map<string, string>();
  webhook: { url: string; secret_token: string; allowed_updates: string[] } | null = null;
  private readonly script: Scripted[] = [];
  /** the calls it was told to leave unanswered, held open until the caller gives up */
  readonly hanging: http.ServerResponse[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<TelegramDouble> {
    let double!: TelegramDouble;
    const server = http.createServer((req, res) => double.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    double = new TelegramDouble(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return double;
  }

  /** The next sending calls (not getMe/setWebhook) are answered like this, in order. */
  answerNext(...answers: Scripted[]): void {
    this.script.push(...answers);
  }

  /** Forgets what answerNext scripted: every call is answered normally again. */
  answerNormally(): void {
    this.script.length = 0;
  }

  /** Successful calls of one chat, in the order they were answered. */
  delivered(chatId: string | number, methods?: string[]): TelegramCall[] {
    return this.calls.filter((c) => c.status === 200 && String(c.params.chat_id) === String(chatId) && (!methods || methods.includes(c.method)));
  }

  /** The texts (and captions) a chat received, in order. */
  textsOf(chatId: string | number): string[] {
    return this.delivered(chatId, ['sendMessage', 'sendPhoto', 'sendVideo', 'sendAudio', 'sendDocument']).map((c) => c.params.text ?? c.params.caption ?? '');
  }

  async waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; last calls: ${JSON.stringify(this.calls.slice(-20).map((c) => [c.method, c.status, c.params.text ?? c.params.caption ?? c.params.action ?? '']))}`,
        );
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!match) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = match;
      let params: any = {};
      const raw = Buffer.concat(chunks).toString('utf8');
      if (raw !== '') {
        if (!/^application\/json/.test(req.headers['content-type'] ?? '')) this.violations.push(`${method}: content-type ${req.headers['content-type']}`);
        try {
          params = JSON.parse(raw);
        } catch {
          this.violations.push(`${method}: body is not JSON`);
        }
      }
      const record = (status: number) => this.calls.push({ token, method, params, status, at: Date.now() });
      if (req.method !== 'POST' && req.method !== 'GET') this.violations.push(`${method}: HTTP ${req.method}`);
      if (!this.bots.has(token)) {
        record(401);
        return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      }
      const problem = this.check(method, params);
      if (problem) {
        this.violations.push(`${method}: ${problem} in ${raw}`);
        record(400);
        return answer(400, { ok: false, error_code: 400, description: `Bad Request: ${problem}` });
      }
      const sending = method !== 'getMe' && method !== 'setWebhook' && method !== 'deleteWebhook';
      const scripted = sending ? this.script.shift() : undefined;
      if (scripted && 'hang' in scripted) {
        record(0);
        this.hanging.push(res);
        return;
      }
      if (scripted?.status === 429) {
        record(429);
        return answer(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${scripted.retryAfter}`, parameters: { retry_after: scripted.retryAfter } });
      }
      if (scripted) {
        record(scripted.status);
        return answer(scripted.status, { ok: false, error_code: scripted.status, description: scripted.status === 403 ? 'Forbidden: bot was blocked by the user' : 'Internal Server Error' });
      }
      record(200);
      if (method === 'getMe') return answer(200, { ok: true, result: { id: 7000001, is_bot: true, first_name: 'Test bot', username: this.bots.get(token) } });
      if (method === 'setWebhook') this.webhook = params;
      if (method === 'deleteWebhook') this.webhook = null;
      const result = method.startsWith('send') ? { message_id: this.calls.length, date: Math.floor(Date.now() / 1000), chat: { id: Number(params.chat_id), type: 'private' } } : true;
      return answer(200, { ok: true, result });
    });
  }

  /** What Telegram would refuse in this call, or null. */
  private check(method: string, p: any): string | null {
    const chatId = () => (typeof p.chat_id === 'number' || (typeof p.chat_id === 'string' && /^-?\d+$|^@\w+$/.test(p.chat_id)) ? null : 'chat_id is missing or malformed');
    switch (method) {
      case 'getMe':
      case 'deleteWebhook':
        return null;
      case 'setWebhook': {
        if (typeof p.url !== 'string' || !/^https?:\/\/[^/]+/.test(p.url)) return 'url must be an absolute URL';
        if (p.secret_token !== undefined && (typeof p.secret_token !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(p.secret_token))) return 'secret_token must be 1-256 of A-Z, a-z, 0-9, _ and -';
        if (p.allowed_updates !== undefined && (!Array.isArray(p.allowed_updates) || p.allowed_updates.some((u: unknown) => !UPDATE_KINDS.has(String(u)))))
          return 'allowed_updates has an unknown update type';
        return null;
      }
      case 'sendMessage': {
        if (typeof p.text !== 'string' || p.text.trim().length === 0) return 'message text is empty';
        if (p.text.length > 4096) return 'message is too long';
        return chatId() ?? this.checkMarkup(p.reply_markup);
      }
      case 'sendChatAction':
        return chatId() ?? (CHAT_ACTIONS.has(p.action) ? null : 'wrong parameter action in request');
      case 'answerCallbackQuery':
        return typeof p.callback_query_id === 'string' && p.callback_query_id !== '' ? null : 'callback_query_id is missing';
      default: {
        const field = SEND_MEDIA[method];
        if (!field) return `method ${method} is not one Colloquy should call`;
        if (typeof p[field] !== 'string' || !/^https?:\/\//.test(p[field])) return `${field} must be a URL`;
        if (p.caption !== undefined && (typeof p.caption !== 'string' || p.caption.length > 1024)) return 'message caption is too long';
        return chatId() ?? this.checkMarkup(p.reply_markup);
      }
    }
  }

  private checkMarkup(markup: any): string | null {
    if (markup === undefined) return null;
    if (!Array.isArray(markup?.inline_keyboard) || markup.inline_keyboard.length === 0) return 'reply_markup.inline_keyboard must be a non-empty array of rows';
    for (const row of markup.inline_keyboard) {
      if (!Array.isArray(row) || row.length === 0) return 'a keyboard row must be a non-empty array';
      for (const b of row) {
        if (typeof b?.text !== 'string' || b.text.trim() === '') return 'a button has no text';
        const kinds = ['callback_data', 'url'].filter((k) => b[k] !== undefined);
        if (kinds.length !== 1) return 'a button must have exactly one of callback_data and url';
        if (b.callback_data !== undefined && (typeof b.callback_data !== 'string' || Buffer.byteLength(b.callback_data) < 1 || Buffer.byteLength(b.callback_data) > 64)) return 'BUTTON_DATA_INVALID';
        if (b.url !== undefined && !/^(https?|tg):\/\//.test(b.url)) return 'BUTTON_URL_INVALID';
      }
    }
    return null;
  }
}
