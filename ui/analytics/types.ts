// The answers of /console/api/bots/... (BotAnalytics and BotFlow), as the server declares them:
// type-only, so nothing of the server goes into the page's bundle.
export type { AnalyticsDay, BotAnalytics, BotFlow, EdgeKind, FlowNode, PeriodFigures } from '../../src/analytics/model.js';
