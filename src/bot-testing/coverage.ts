// `--coverage` (testing.md): per bot, the interactions no test entered and the buttons no test
// pressed. An interaction counts as reached when the engine reads its actions to run them: the
// compiled interaction is given a counting getter, so the engine itself is not changed.
import type { CompiledInteraction } from '../engine/compile.js';
import type { BotUnderTest } from './bot-under-test.js';

export interface BotCoverage {
  bot: string;
  path: string;
  interactions: { total: number; missed: string[] };
  buttons: { total: number; missed: string[] };
}

interface Tracked {
  bot: BotUnderTest;
  entered: Set<string>;
  pressed: Set<string>;
}

const nameOf = (i: CompiledInteraction) => `${i.behaviour.name}/${i.name}`;

export class Coverage {
  private readonly bots = new Map<BotUnderTest, Tracked>();

  /** Starts counting for `bot` (once per bot, before its first test runs). */
  track(bot: BotUnderTest): void {
    if (this.bots.has(bot)) return;
    const tracked: Tracked = { bot, entered: new Set(), pressed: new Set() };
    this.bots.set(bot, tracked);
    for (const behaviour of bot.compiled.behaviours.values()) {
      for (const interaction of behaviour.interactions.values()) {
        const actions = interaction.actions;
        Object.defineProperty(interaction, 'actions', {
          get() {
            tracked.entered.add(nameOf(interaction));
            return actions;
          },
        });
      }
    }
  }

  pressed(bot: BotUnderTest, command: string): void {
    this.bots.get(bot)?.pressed.add(command);
  }

  /** Server runs cannot see inside the engine: what the replies name is what was reached. */
  reachedByName(bot: BotUnderTest, behaviour: string, interaction: string): void {
    const found = bot.compiled.behaviours.get(behaviour.toLowerCase())?.interactions.get(interaction.toLowerCase());
    if (found) this.bots.get(bot)?.entered.add(nameOf(found));
  }

  report(): BotCoverage[] {
    return [...this.bots.values()].map(({ bot, entered, pressed }) => {
      const interactions: string[] = [];
      for (const behaviour of bot.compiled.behaviours.values()) for (const i of behaviour.interactions.values()) interactions.push(nameOf(i));
      const buttons: Array<{ id: string; label: string }> = [];
      for (const [id, location] of bot.compiled.actionsById) {
        if (location.action.type !== 'button') continue;
        const where = location.interaction ? nameOf(location.interaction) : 'a trigger';
        buttons.push({ id, label: `"${String(location.action.text ?? '')}" in ${where}` });
      }
      return {
        bot: bot.name,
        path: bot.path,
        interactions: { total: interactions.length, missed: interactions.filter((i) => !entered.has(i)) },
        buttons: { total: buttons.length, missed: buttons.filter((b) => !pressed.has(b.id)).map((b) => b.label) },
      };
    });
  }
}
