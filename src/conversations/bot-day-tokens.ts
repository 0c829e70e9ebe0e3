// The tokens each bot's agents used today (agents.md "Budgets": settings.ai.maxTokensPerBotDay),
// counted in this process: a bot served by several nodes may pass its budget by what the other
// nodes used that day (docs/agents.md says so). Only today's counts are kept.
export class BotDayTokens {
  private day = -1;
  private readonly used = new Map<string, number>();

  tokensOf(botId: string, day: number): number {
    return day === this.day ? (this.used.get(botId) ?? 0) : 0;
  }

  add(botId: string, day: number, tokens: number): void {
    if (!Number.isFinite(tokens) || tokens <= 0) return;
    if (day !== this.day) {
      this.day = day;
      this.used.clear();
    }
    this.used.set(botId, (this.used.get(botId) ?? 0) + Math.floor(tokens));
  }
}
