// Where a bot's webhooks go: its custom channel's URL, none when it is not set. The turns' plan
// (conversations/webhook-plan.ts), the deliveries, the messaging connections and the broadcasts'
// notices all ask it here.
import type { BotRecord } from '../bots/model.js';

export function webhookUrlOf(bot: BotRecord): string | null {
  const url = bot.settings.channels?.custom?.webhookUrl;
  return typeof url === 'string' && url !== '' ? url : null;
}
