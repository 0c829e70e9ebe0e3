// A stand-in for a Chatwoot installation's API on 127.0.0.1, written from Chatwoot's API reference
// (developers.chatwoot.com/api-reference): `GET /api/v1/profile`, `POST /api/v1/accounts/{account}/
// conversations/{id}/messages` (`content`, `message_type`, `private`, `content_type`,
// `content_attributes`) and `POST …/toggle_status` (`status`), authenticated by the
// `api_access_token` header. A message Chatwoot would refuse is recorded in `violations`.
import type http from 'node:http';
import { ScriptedDouble } from './double-kit.js';

export interface ChatwootCall {
  method: string;
  path: string;
  body: any;
  status: number;
  at: number;
}

const PATH = /^\/api\/v1\/accounts\/(\d+)\/conversations\/(\d+)\/(messages|toggle_status)$/;

export class ChatwootDouble extends ScriptedDouble<ChatwootCall> {
  protected readonly platform = 'Chatwoot';
  private nextId = 1000;

  private constructor(readonly botToken: string) {
    super();
  }

  /** Listens on loopback; `url` is then the BaseUrl to connect with. */
  static start(botToken: string): Promise<ChatwootDouble> {
    return new ChatwootDouble(botToken).listen();
  }

  protected describe(c: ChatwootCall): unknown {
    return [c.status, c.path, c.body?.content ?? c.body?.status];
  }

  /** Messages Chatwoot accepted in one conversation. */
  messagesIn(account: string, conversation: string): any[] {
    return this.calls.filter((c) => c.status === 200 && c.path === `/api/v1/accounts/${account}/conversations/${conversation}/messages`).map((c) => c.body);
  }

  contentsIn(account: string, conversation: string): string[] {
    return this.messagesIn(account, conversation).map((m) => m.content);
  }

  togglesOf(account: string, conversation: string): string[] {
    return this.calls.filter((c) => c.status === 200 && c.path === `/api/v1/accounts/${account}/conversations/${conversation}/toggle_status`).map((c) => c.body.status);
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : null;
      const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
      const record = (status: number) => this.calls.push({ method: req.method ?? '', path, body, status, at: Date.now() });
      if (req.headers.api_access_token !== this.botToken) {
        record(401);
        return json(401, { error: 'Invalid Access Token' });
      }
      if (req.method === 'GET' && path === '/api/v1/profile') {
        record(200);
        return json(200, { id: 7, name: 'Shop bot', type: 'agent_bot' });
      }
      const match = req.method === 'POST' ? PATH.exec(path) : null;
      if (!match) {
        record(404);
        return json(404, { error: 'Resource could not be found' });
      }
      const problems = match[3] === 'messages' ? checkMessage(body) : body?.status === 'open' || body?.status === 'pending' || body?.status === 'resolved' ? [] : [`status ${body?.status}`];
      const answer = problems.length > 0 ? 'invalid' : (this.script.shift() ?? 'ok');
      const status = answer === 'ok' ? 200 : answer === 'rate-limit' ? 429 : answer === 'server-error' ? 500 : answer === 'invalid' ? 422 : 0;
      this.violations.push(...problems.map((p) => `${p} in ${text}`));
      record(status);
      if (answer === 'hang') return void this.hanging.push(res);
      if (answer === 'rate-limit') return json(429, { error: 'Too many requests' }, { 'retry-after': String(this.retryAfterSeconds) });
      if (answer === 'server-error') return json(500, { error: 'Internal server error' });
      if (answer === 'invalid') return json(422, { message: problems.join('; ') });
      return json(200, match[3] === 'messages' ? { id: ++this.nextId, content: body.content, message_type: 1 } : { meta: {}, payload: { success: true, current_status: body.status } });
    });
  }
}

function checkMessage(body: any): string[] {
  const problems: string[] = [];
  if (typeof body?.content !== 'string' || body.content.trim() === '') problems.push('content is required');
  if (body?.message_type !== undefined && body.message_type !== 'outgoing' && body.message_type !== 'incoming') problems.push(`message_type ${body.message_type}`);
  if (body?.content_type !== undefined) {
    if (body.content_type !== 'input_select') problems.push(`content_type ${body.content_type}`);
    const items = body.content_attributes?.items;
    if (!Array.isArray(items) || items.length === 0 || !items.every((i: any) => typeof i?.title === 'string' && i.title !== '' && typeof i?.value === 'string' && i.value !== ''))
      problems.push('input_select needs items [{title, value}]');
  }
  return problems;
}
