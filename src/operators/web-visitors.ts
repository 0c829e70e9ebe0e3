// The console's view of a web visitor (issue 27): their name and e-mail (the well-known variables
// `name` and `email` the bot asked for), the page they are on, their browser and language, and
// their earlier conversations on the same bot; and the operator's own picture, shown to visitors.
import type { ConversationRecord } from '../conversations/model.js';
import type { Clock } from '../shared/clock.js';
import type { WebVisitorPanelStorage } from './port.js';
import type { ConsoleService } from './console-service.js';
import type { OperatorContext } from './sessions.js';
import { readableName } from './views.js';

/** Earlier conversations listed at most; a returning visitor's history stays one screen. */
const EARLIER_LIMIT = 20;

export interface WebVisitorView {
  Name: string | null;
  Email: string | null;
  PageUrl: string | null;
  /** a short name of the browser ("Chrome 131", "Firefox 133"), from the user agent */
  Browser: string | null;
  UserAgent: string | null;
  Language: string | null;
  SeenAt: string | null;
  Earlier: Array<{ UserId: string; StartedAt: string; LastActivity: string; State: number }>;
}

export interface WebVisitorPanelDeps {
  store: WebVisitorPanelStorage;
  console: Pick<ConsoleService, 'find'>;
  clock: Clock;
}

export class WebVisitorPanel {
  constructor(private readonly deps: WebVisitorPanelDeps) {}

  async visitor(ctx: OperatorContext, botId: string, userId: string): Promise<WebVisitorView> {
    const { bot, conversation } = await this.deps.console.find(ctx, botId, userId);
    const seen = await this.deps.store.webVisitors.of(conversation.id);
    const iso = (ms: number) => this.deps.clock.iso(ms);
    const earlier = seen?.visitorId ? await this.deps.store.webVisitors.earlier(bot.id, seen.visitorId, conversation.id, EARLIER_LIMIT) : [];
    return {
      ...contactFields(conversation),
      PageUrl: seen?.pageUrl ?? null,
      Browser: seen?.userAgent ? browserName(seen.userAgent) : null,
      UserAgent: seen?.userAgent ?? null,
      Language: seen?.language ?? null,
      SeenAt: seen ? iso(seen.seenAt) : null,
      Earlier: earlier.map((e) => ({ UserId: e.userId, StartedAt: iso(e.createdAt), LastActivity: iso(e.updatedAt), State: e.controlState })),
    };
  }

  /** Sets or clears (null) the signed-in operator's picture, shown to visitors beside their name. */
  async setAvatar(ctx: OperatorContext, url: string | null): Promise<{ AvatarUrl: string | null }> {
    await this.deps.store.webVisitors.setOperatorAvatar(ctx.account.id, ctx.operator.id, url);
    return { AvatarUrl: url };
  }

  async avatar(ctx: OperatorContext): Promise<{ AvatarUrl: string | null }> {
    return { AvatarUrl: await this.deps.store.webVisitors.operatorAvatar(ctx.account.id, ctx.operator.email) };
  }
}

/** The contact's fields: what the bot asked for into the well-known variables (docs/channels.md). */
function contactFields(c: ConversationRecord): { Name: string | null; Email: string | null } {
  const email = c.state.variables.email?.trim();
  return { Name: readableName(c.state.variables), Email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email.slice(0, 254) : null };
}

const BROWSERS: Array<[string, RegExp]> = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /OPR\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+).*Safari\//],
];

/** "Chrome 131": the first browser the user agent names (order matters: Edge says Chrome too), else null. */
export function browserName(userAgent: string): string | null {
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1]}`;
  }
  return null;
}
