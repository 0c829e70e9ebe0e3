// Background upkeep, once a second: finish forgetting conversations, lift expired bans, hand
// `auto` shares back to the bot, and the chores other parts hand in (e.g. pruning the record of
// messaging updates already run). Every step is idempotent, so any number of nodes may run it; the
// state it works from is in the database, so a restart loses nothing.
import type { ControlService } from './control-service.js';
import type { Forgetting } from './forgetting.js';

export class Maintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly forgetting: Forgetting,
    private readonly control: ControlService,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly chores: Array<() => Promise<unknown>> = [],
  ) {}

  async runOnce(): Promise<void> {
    await this.forgetting.finishInterrupted();
    await this.control.liftEndedBans();
    await this.control.handBackExpiredLinks();
    for (const chore of this.chores) await chore();
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch(this.onError)
        .finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
