// Delivering to the integrator's webhook (api.md section 12): a POST of the stored body, signed
// with the bot's secret, through the address guard.
import { performHttpCall } from '../integrations/http-call.js';
import type { WebhookBots } from './port.js';
import type { AttemptResult, DeliveryTarget } from './delivery-target.js';
import type { OutboxRow } from './model.js';
import { webhookUrlOf } from './webhook-url.js';
import { sign } from './signature.js';
import type { Clock } from '../shared/clock.js';

const DELIVERY_TIMEOUT_MS = 10_000;

export class WebhookTarget implements DeliveryTarget {
  constructor(
    private readonly store: WebhookBots,
    private readonly clock: Clock,
    private readonly options: { allowPrivateNetwork: boolean },
  ) {}

  async attempt(row: OutboxRow): Promise<AttemptResult> {
    const bot = await this.store.bots.byId(row.botId);
    const url = bot ? webhookUrlOf(bot) : null;
    if (!bot || !url) return { ok: false, statusCode: null, error: 'the bot has no webhook URL any more', retry: bot !== null };
    const seconds = Math.floor(this.clock.now() / 1000);
    const answer = await performHttpCall(
      {
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/json',
          authorization: bot.apiSecret,
          'x-colloquy-delivery': row.deliveryId,
          'x-colloquy-signature': sign(bot.apiSecret, row.body, seconds),
        },
        body: row.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      },
      { allowPrivateNetwork: this.options.allowPrivateNetwork, maxBytes: 64 * 1024 },
    );
    if (typeof answer.status === 'number') {
      const ok = answer.status >= 200 && answer.status < 300;
      return { ok, statusCode: answer.status, error: ok ? null : `HTTP ${answer.status}` };
    }
    return { ok: false, statusCode: null, error: answer.status === 'TIMEOUT' ? 'timeout' : 'connection failed or address refused' };
  }
}
