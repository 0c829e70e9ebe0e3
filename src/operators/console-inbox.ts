// The console as an inbox (issue 27): search every message of the account's conversations,
// resolve / reopen / snooze, transfer to a colleague or a team (round robin among the team's
// members who have the console open on any node: presence.ts), and the account's teams. Inbox
// status and teams are the console's own records, never conversation state (docs/decisions.md
// "Console inbox").
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { InboxStorage } from './port.js';
import { STATE_BANNED, STATE_BOT, STATE_TAKEN_OVER } from '../conversations/control.js';
import type { ControlService } from '../conversations/control-service.js';
import type { ConsoleService } from './console-service.js';
import type { OperatorContext } from './sessions.js';
import { OperatorPresence } from './presence.js';
import { assigneeOf, textOf, type AssigneeView } from './views.js';
import { indexNewMessages } from './message-index.js';

export const SEARCH_RESULTS = 50;
export const TEAMS_LIMIT = 50;
/** Words to search for: letters and digits only (lower case); each matches as a word prefix. */
export function searchWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8).map((w) => w.slice(0, 64));
}

/** The longest snooze: a month (a longer wait is a resolve). */
export const MAX_SNOOZE_MINUTES = 31 * 24 * 60;

export interface SearchHit {
  BotId: string;
  UserId: string;
  Direction: string;
  At: string;
  /** the words around the hit, from the newest message of the conversation that holds them */
  Text: string;
}

export interface TeamView {
  TeamId: number;
  Name: string;
  Members: Array<{ OperatorId: string; Name: string; Online: boolean }>;
}

export class ConsoleInbox {
  /** who has the console open, on any node (presence.ts) */
  readonly online: OperatorPresence;
  constructor(private readonly deps: { store: InboxStorage; console: ConsoleService; control: ControlService; clock: Clock }) {
    this.online = new OperatorPresence(deps);
  }

  /** Conversations whose messages hold every word (prefixes), newest hit first, one per conversation. */
  async search(ctx: OperatorContext, query: string): Promise<{ Results: SearchHit[] }> {
    const words = searchWords(query);
    if (words.length === 0) return { Results: [] };
    const bots = await this.deps.store.bots.byAccount(ctx.account.id);
    await indexNewMessages(this.deps.store);
    const hits = await this.deps.store.messageSearch.find(
      bots.map((b) => b.id),
      words,
      SEARCH_RESULTS * 4,
    );
    const seen = new Set<number>();
    const results: SearchHit[] = [];
    for (const hit of hits) {
      if (seen.has(hit.conversationId) || results.length >= SEARCH_RESULTS) continue;
      seen.add(hit.conversationId);
      const c = await this.deps.store.conversations.byId(hit.conversationId);
      if (!c) continue;
      results.push({ BotId: c.botId, UserId: c.userId, Direction: hit.direction, At: this.deps.clock.iso(hit.createdAt), Text: around(textOf(hit.parts), words[0]!) });
    }
    return { Results: results };
  }

  /**
   * Done with it: a conversation a person has (or is waiting for) goes back to the bot first, so
   * nobody is left waiting on a resolved conversation. The user's next message opens it again.
   */
  async resolve(ctx: OperatorContext, botId: string, userId: string) {
    const { bot, conversation } = await this.deps.console.find(ctx, botId, userId);
    const state = this.deps.control.view(conversation).State;
    if (state !== STATE_BOT && state !== STATE_BANNED) await this.deps.control.change(bot, userId, { state: 'handover', mode: '*' });
    await this.deps.store.inbox.setStatus(conversation.id, 'resolved', null, this.deps.clock.now());
    await this.deps.console.record(ctx, conversation.id, 'resolve');
    return { Status: 'resolved' as const };
  }

  async reopen(ctx: OperatorContext, botId: string, userId: string) {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    await this.deps.store.inbox.setStatus(conversation.id, null, null, this.deps.clock.now());
    await this.deps.console.record(ctx, conversation.id, 'reopen');
    return { Status: 'open' as const };
  }

  /** Out of the open list until `minutes` pass or the user writes. */
  async snooze(ctx: OperatorContext, botId: string, userId: string, minutes: number) {
    const { conversation } = await this.deps.console.find(ctx, botId, userId);
    const until = this.deps.clock.now() + minutes * 60_000;
    await this.deps.store.inbox.setStatus(conversation.id, 'snoozed', until, this.deps.clock.now());
    await this.deps.console.record(ctx, conversation.id, 'snooze', this.deps.clock.iso(until));
    return { Status: 'snoozed' as const, SnoozedUntil: this.deps.clock.iso(until) };
  }

  /**
   * To a colleague: assigned to them, and a takeover becomes theirs (the visitor sees their name).
   * To a team: the conversation joins the team and goes to the member online who got one of the
   * team's conversations longest ago; with nobody online it waits unassigned in the team.
   */
  async transfer(
    ctx: OperatorContext,
    botId: string,
    userId: string,
    to: { OperatorId?: string; TeamId?: number },
  ): Promise<{ AssignedTo: AssigneeView | null; Team: { TeamId: number; Name: string } | null }> {
    const { bot, conversation } = await this.deps.console.find(ctx, botId, userId);
    const now = this.deps.clock.now();
    let operatorId = to.OperatorId ?? null;
    let team: { TeamId: number; Name: string } | null = null;
    if (to.TeamId !== undefined) {
      const found = (await this.deps.store.teams.ofAccount(ctx.account.id)).find((t) => t.id === to.TeamId);
      if (!found) throw new AppError('TEAM_NOT_FOUND', undefined, { Field: 'TeamId' });
      team = { TeamId: found.id, Name: found.name };
      const online = [...(await this.online.online(found.memberIds))];
      operatorId = await this.deps.store.transaction(async (tx) => {
        await tx.inbox.setTeam(conversation.id, found.id, now);
        return tx.teams.nextMember(found.id, online, now);
      });
    }
    const operator = operatorId ? await this.deps.store.operators.byId(operatorId) : null;
    if (operatorId && (!operator || operator.accountId !== ctx.account.id)) throw new AppError('OPERATOR_NOT_FOUND', 'No operator of this account has this id.', { Field: 'OperatorId' });
    if (operator) {
      await this.deps.store.assignments.assign(conversation.id, operator.id, now);
      if (this.deps.control.view(conversation).State === STATE_TAKEN_OVER) await this.deps.control.change(bot, userId, { state: 'takeover', operator: operator.email });
    } else await this.deps.store.assignments.unassign(conversation.id);
    const names = [team?.Name, operator ? operator.name || operator.email : null].filter(Boolean);
    await this.deps.console.record(ctx, conversation.id, 'transfer', names.join(' → ') || null);
    return { AssignedTo: assigneeOf((await this.deps.store.assignments.ofConversations([conversation.id])).get(conversation.id)), Team: team };
  }

  async teams(ctx: OperatorContext): Promise<{ Teams: TeamView[]; Operators: Array<{ OperatorId: string; Name: string; Online: boolean }> }> {
    const operators = await this.deps.store.operators.ofAccount(ctx.account.id);
    const online = await this.online.online(operators.map((o) => o.id));
    const person = (id: string) => ({ OperatorId: id, Name: operators.find((o) => o.id === id)?.name ?? id, Online: online.has(id) });
    const teams = await this.deps.store.teams.ofAccount(ctx.account.id);
    return {
      Teams: teams.map((t) => ({ TeamId: t.id, Name: t.name, Members: t.memberIds.map(person) })),
      Operators: operators.map((o) => person(o.id)),
    };
  }

  async createTeam(ctx: OperatorContext, name: string, memberIds: string[]): Promise<TeamView> {
    const clean = name.trim();
    if (clean === '') throw new AppError('INVALID_REQUEST', 'A team needs a name.', { Field: 'Name' });
    const members = await this.members(ctx, memberIds);
    const id = await this.deps.store.transaction(async (tx) => {
      if ((await tx.teams.ofAccount(ctx.account.id)).length >= TEAMS_LIMIT) {
        throw new AppError('LIMIT_EXCEEDED', `An account keeps at most ${TEAMS_LIMIT} teams.`, { Limit: 'TeamsPerAccount', Max: TEAMS_LIMIT });
      }
      const created = await tx.teams.create(ctx.account.id, clean, this.deps.clock.now());
      if (created === null) throw new AppError('CONFLICT', `The account already has a team ${clean}.`, { Field: 'Name' });
      await tx.teams.setMembers(created, members, this.deps.clock.now());
      return created;
    });
    return (await this.teams(ctx)).Teams.find((t) => t.TeamId === id)!;
  }

  async setMembers(ctx: OperatorContext, teamId: number, memberIds: string[]): Promise<TeamView> {
    const members = await this.members(ctx, memberIds);
    if (!(await this.deps.store.teams.ofAccount(ctx.account.id)).some((t) => t.id === teamId)) throw new AppError('TEAM_NOT_FOUND');
    await this.deps.store.teams.setMembers(teamId, members, this.deps.clock.now());
    return (await this.teams(ctx)).Teams.find((t) => t.TeamId === teamId)!;
  }

  async deleteTeam(ctx: OperatorContext, teamId: number): Promise<{ Deleted: true }> {
    if (!(await this.deps.store.teams.remove(ctx.account.id, teamId))) throw new AppError('TEAM_NOT_FOUND');
    return { Deleted: true };
  }

  private async members(ctx: OperatorContext, ids: string[]): Promise<string[]> {
    const known = new Set((await this.deps.store.operators.ofAccount(ctx.account.id)).map((o) => o.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown) throw new AppError('OPERATOR_NOT_FOUND', 'No operator of this account has this id.', { Field: 'OperatorIds', OperatorId: unknown });
    return [...new Set(ids)];
  }
}

/** About 120 characters of `text` around the first word that starts with `word`. */
function around(text: string, word: string): string {
  const at = text.toLowerCase().search(new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u'));
  if (at < 0 || text.length <= 120) return text.length > 120 ? `${text.slice(0, 119)}…` : text;
  const start = Math.max(0, at - 40);
  const cut = text.slice(start, start + 120);
  return `${start > 0 ? '…' : ''}${cut}${start + 120 < text.length ? '…' : ''}`;
}
