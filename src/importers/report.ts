// The report every converter writes (importers.md "Report"): what was skipped and what was changed,
// each with its path in the source, and the counts of what was carried over, taken from the bot
// file itself so they cannot drift from it. Nothing is dropped silently; a report is bounded (an
// export of a million unknown blocks gets a long list, not an unbounded one).
import type { Action, BotFile } from '../engine/bot-file.js';
import type { ImportReport, ReportEntry } from './model.js';

/** At most this many entries in each list; the last one then says how many more there were. */
export const MAX_REPORT_ENTRIES = 1_000;

/** `file: $.a.b[2]`: where an element was, for people who open the export to look. */
export const sourcePath = (file: string, path: Array<string | number>): string =>
  `${file}: $${path.map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_][\w-]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('')}`;

export class ReportBuilder {
  private readonly skipped: ReportEntry[] = [];
  private readonly changed: ReportEntry[] = [];
  private skippedOver = 0;
  private changedOver = 0;
  private interaction: string | null = null;

  /** What is skipped or changed from now on belongs to this interaction of the bot (null: to none). */
  within(interaction: string | null): void {
    this.interaction = interaction;
  }

  skip(Path: string, What: string, Why: string): void {
    if (this.skipped.length < MAX_REPORT_ENTRIES) this.skipped.push(this.entry(Path, What, Why));
    else this.skippedOver++;
  }

  change(Path: string, What: string, Why: string): void {
    if (this.changed.length < MAX_REPORT_ENTRIES) this.changed.push(this.entry(Path, What, Why));
    else this.changedOver++;
  }

  private entry(Path: string, What: string, Why: string): ReportEntry {
    return this.interaction === null ? { Path, What, Why } : { Path, What, Why, Interaction: this.interaction };
  }

  /** The report of `bot`: the counts are read from the file that was made. */
  finish(bot: BotFile): ImportReport {
    const more = (n: number): ReportEntry[] => (n > 0 ? [{ Path: '', What: `${n} more`, Why: `the report lists the first ${MAX_REPORT_ENTRIES}` }] : []);
    const interactions = bot.behaviours.flatMap((b) => b.interactions);
    const actions = countActions([...interactions.map((i) => i.actions), ...(bot.triggers ?? []).map((t) => t.actions), ...bot.behaviours.flatMap((b) => (b.triggers ?? []).map((t) => t.actions))]);
    return {
      Converted: {
        Behaviours: bot.behaviours.length,
        Interactions: interactions.length,
        Intents: bot.nlp?.intents?.length ?? 0,
        Entities: bot.nlp?.entities?.length ?? 0,
        Variables: variableNames(bot).size,
        Actions: actions,
      },
      Skipped: [...this.skipped, ...more(this.skippedOver)],
      Changed: [...this.changed, ...more(this.changedOver)],
    };
  }
}

/** Operation lists nested in an action (bot-format.md "Actions"). */
const NESTED = ['onClick', 'then', 'else', 'onSuccess', 'onGiveUp', 'onError', 'buttons'] as const;

function countActions(lists: Action[][]): number {
  let count = 0;
  const pending = [...lists];
  while (pending.length > 0) {
    for (const action of pending.pop()!) {
      count++;
      for (const key of NESTED) if (Array.isArray(action[key])) pending.push(action[key] as Action[]);
    }
  }
  return count;
}

/** Declared defaults and every variable an action writes. */
function variableNames(bot: BotFile): Set<string> {
  const names = new Set(Object.keys(bot.variables ?? {}));
  const pending: unknown[] = [bot.behaviours, bot.triggers ?? []];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === 'object') {
      const action = node as Record<string, unknown>;
      if (typeof action.type === 'string' && typeof action.variable === 'string' && action.type !== 'variableSwitch') names.add(action.variable);
      if (action.type === 'setVariable' && typeof action.name === 'string') names.add(action.name);
      pending.push(...Object.values(action).filter((v) => typeof v === 'object'));
    }
  }
  return names;
}
