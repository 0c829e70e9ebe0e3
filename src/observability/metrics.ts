// Prometheus metrics (/metrics). Counters are per process; the conversation gauge is read from
// the database at scrape time so every node reports the same truth.
import client from 'prom-client';

export class Metrics {
  readonly registry = new client.Registry();
  readonly requests = new client.Counter({
    name: 'colloquy_http_requests_total',
    help: 'HTTP requests served, by route and status',
    labelNames: ['route', 'status'],
    registers: [this.registry],
  });
  readonly turns = new client.Counter({
    name: 'colloquy_turns_total',
    help: 'Chat turns run, by channel and how they ended',
    labelNames: ['channel', 'ended'],
    registers: [this.registry],
  });
  readonly turnSeconds = new client.Histogram({
    name: 'colloquy_turn_duration_seconds',
    help: 'Wall time of a chat turn, load to commit',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly webhookDeliveries = new client.Counter({
    name: 'colloquy_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly channelDeliveries = new client.Counter({
    name: 'colloquy_channel_deliveries_total',
    help: 'Calls to messaging platforms (every channel but custom and web), by channel and outcome (delivered, failed, given_up)',
    labelNames: ['channel', 'outcome'],
    registers: [this.registry],
  });
  readonly channelUpdates = new client.Counter({
    name: 'colloquy_channel_updates_total',
    help: 'Webhook requests from messaging platforms, by channel and outcome (run, duplicate, refused, banned, ignored)',
    labelNames: ['channel', 'outcome'],
    registers: [this.registry],
  });

  constructor(conversationsByState: () => Promise<Record<string, number>>, nlpTrainings: () => number = () => 0) {
    // Training belongs to publishing: a turn never trains, and this counter lets that be checked.
    new client.Counter({
      name: 'colloquy_nlp_trainings_total',
      help: 'Intent models trained by this process (at publish, never in a turn)',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(nlpTrainings());
      },
    });
    new client.Gauge({
      name: 'colloquy_conversations',
      help: 'Stored conversations by control state (bot, requested, operator, banned)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const counts = await conversationsByState();
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
    client.collectDefaultMetrics({ register: this.registry, prefix: 'colloquy_process_' });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
