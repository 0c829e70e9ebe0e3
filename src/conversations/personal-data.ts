// Personal-data export (governance.md "Personal-data export"): everything held about one
// conversation as one JSON document, written as it is read, a page of rows at a time, so a long
// history never sits whole in memory. Sections: the conversation (variables, tags, control state),
// its history (every part), operator notes and the console's activity, analytics events,
// broadcasts it received, missed texts it wrote, shares, deliveries to the integrator, the
// assignment, inbox status, what the widget or platform knows of the contact, and the traces of
// its agent turns (agents.md "Trace": steps with the model's arguments and the tools' results).
// An unknown conversation, or one being forgotten, is 404.
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { PersonalDataSection, PersonalDataStorage } from './governance-port.js';
import type { ConversationRecord } from './model.js';

const LISTS: PersonalDataSection[] = ['History', 'Notes', 'Activity', 'AnalyticsEvents', 'MissedTexts', 'Deliveries', 'Broadcasts', 'Shares', 'AgentTraces', 'Approvals'];
const SINGLES: PersonalDataSection[] = ['Assignment', 'Inbox', 'WebVisitor', 'ChannelContact'];
const PAGE = 500;
/** Columns stored as JSON text, written as JSON. */
const JSON_COLUMNS = new Set(['Parts', 'Body', 'Steps', 'Arguments']);
const BOOLEAN_COLUMNS = new Set(['Pending', 'HandedBack']);

export class PersonalDataExport {
  constructor(
    private readonly store: PersonalDataStorage,
    private readonly clock: Clock,
  ) {}

  /** The conversation, or 404: checked before the answer starts, so an error is still a JSON error. */
  async open(botId: string, userId: string): Promise<ConversationRecord> {
    const c = await this.store.conversations.byUser(botId, userId);
    if (!c || c.forgetting) throw new AppError('CONVERSATION_NOT_FOUND');
    return c;
  }

  /** The document, chunk by chunk. */
  async *document(c: ConversationRecord, botName: string): AsyncGenerator<string> {
    const head = {
      ExportedAt: this.clock.iso(),
      Bot: { BotId: c.botId, Name: botName },
      UserId: c.userId,
      Channel: c.channel,
      CreatedAt: this.clock.iso(c.createdAt),
      UpdatedAt: this.clock.iso(c.updatedAt),
      Control: { State: c.controlState, Operator: c.operator, BanExpiration: c.banExpiration, BanMessage: c.banMessage, ChangedAt: this.clock.iso(c.controlChangedAt) },
      Variables: c.state.variables ?? {},
      Tags: c.state.tags ?? [],
    };
    yield JSON.stringify(head).slice(0, -1);
    for (const section of SINGLES) {
      const [first] = await this.store.personalData.page(section, c.id, 0, 1);
      yield `,${JSON.stringify(section)}:${JSON.stringify(first ? this.written(first.row) : null)}`;
    }
    for (const section of LISTS) {
      yield `,${JSON.stringify(section)}:[`;
      let after = 0;
      let written = 0;
      for (;;) {
        const rows = await this.store.personalData.page(section, c.id, after, PAGE);
        if (rows.length > 0) yield (written > 0 ? ',' : '') + rows.map((r) => JSON.stringify(this.written(r.row))).join(',');
        written += rows.length;
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1].key;
      }
      yield ']';
    }
    yield '}';
  }

  /** A row as the document shows it: times in ISO 8601, JSON columns as JSON, flags as booleans. */
  private written(row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) {
      if (value === null || value === undefined) out[name] = null;
      else if (JSON_COLUMNS.has(name) && typeof value === 'string') out[name] = parsed(value);
      else if (BOOLEAN_COLUMNS.has(name)) out[name] = Boolean(Number(value));
      else if ((name.endsWith('At') || name === 'SnoozedUntil') && !Number.isNaN(Number(value))) out[name] = this.clock.iso(Number(value));
      else out[name] = typeof value === 'string' || typeof value === 'boolean' ? value : Number(value);
    }
    return out;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
