// The bot picker of the console's pages: the account's bots in a <select>, a bot that is not
// published yet marked so, and the bot named in the address (?bot=) chosen when it is one of them.
import { type ApiClient, consoleApi } from './api-client';

/** A bot as GET /console/api/bots lists it. */
export interface BotChoice {
  BotId: string;
  Name: string;
  Published: boolean;
}

/** The bots the signed-in operator may open (GET /console/api/bots). */
export const accountBots = async (api: ApiClient = consoleApi): Promise<BotChoice[]> => (await api.call<{ Result: BotChoice[] }>('GET', '/bots')).Result;

/** The option's words for `bot`. */
export const botLabel = (bot: BotChoice): string => (bot.Published ? bot.Name : `${bot.Name} (not published)`);

/** Adds one option per bot to `select` and chooses `wanted` when it is among them. */
export function fillBotPicker(select: HTMLSelectElement, bots: readonly BotChoice[], wanted: string | null = null): void {
  for (const bot of bots) {
    const option = document.createElement('option');
    option.value = bot.BotId;
    option.textContent = botLabel(bot);
    select.append(option);
  }
  if (wanted && bots.some((b) => b.BotId === wanted)) select.value = wanted;
}
