// The analytics page (/console/analytics): a signed-in operator picks a bot and a period; the page
// shows the bot's analytics as charts and its live flow as a picture. It reads the console API
// with the console's session cookie; everything it writes into the page goes through textContent.
import { consoleApi, isSignedOut, signedIn } from '../shared/api-client';
import { accountBots, fillBotPicker, type BotChoice } from '../shared/bot-picker';
import { drawConsoleNav } from '../shared/console-nav';
import { drawCharts } from './charts';
import { change, formatFigure, type Figure } from './compare';
import { drawFlow } from './flow-graph';
import { offerRatingQuestion } from './rating-offer';
import type { BotAnalytics, BotFlow, PeriodFigures } from './types';
import { CONVERSATIONS, MESSAGES, RATING_UNIT, waitsUnit } from './units';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const get = <T>(path: string) => consoleApi.call<T>('GET', path);

/** the flow on screen, drawn again when the window's width changes (it fits or scrolls by width) */
let shownFlow: BotFlow | null = null;
let resizing = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = window.setTimeout(() => shownFlow && drawFlow($('flow'), shownFlow), 150);
});

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

/** The headline tiles: the figure in its unit (units.ts), and under it its change from the previous period. */
const HEADLINES: { id: string; figure: (d: BotAnalytics) => Figure; of: (p: PeriodFigures) => number | null }[] = [
  { id: 'conversations', figure: () => ({ kind: 'count', noun: CONVERSATIONS }), of: (p) => p.Totals.Conversations },
  { id: 'messages', figure: () => ({ kind: 'count', noun: MESSAGES }), of: (p) => p.Totals.UserMessages + p.Totals.BotMessages + p.Totals.OperatorMessages },
  // a hand-over is a conversation handed over, counted once (docs/analytics.md)
  { id: 'handovers', figure: () => ({ kind: 'count', noun: CONVERSATIONS }), of: (p) => p.Totals.HandOvers },
  { id: 'fallback', figure: () => ({ kind: 'share' }), of: (p) => (p.Totals.UserMessages === 0 ? null : p.Totals.FallbackShare) },
  { id: 'waiting', figure: (d) => ({ kind: 'time', unit: waitsUnit(d) }), of: (p) => p.Waits.Waiting.P50Seconds },
  { id: 'first-response', figure: (d) => ({ kind: 'time', unit: waitsUnit(d) }), of: (p) => p.Waits.FirstResponse.P50Seconds },
  { id: 'csat', figure: () => ({ kind: 'rating' }), of: (p) => p.Csat.Average },
];

function showHeadlines(data: BotAnalytics): void {
  for (const h of HEADLINES) {
    const now = h.of(data);
    const figure = h.figure(data);
    $(`total-${h.id}`).textContent = figure.kind === 'share' && now === null ? '0%' : formatFigure(now, figure);
    $(`delta-${h.id}`).textContent = change(now, h.of(data.Previous), figure);
  }
  const days = data.Days.length;
  $('compared').textContent = `compared with the ${days === 1 ? 'day' : `${days} days`} before (${data.Previous.From} to ${data.Previous.To})`;
  const w = data.Waits;
  $('waits-hint').textContent = `From waiting for a person to the takeover, and to the operator's first message; ${w.Requests} waits began in the period.`;
  $('csat-hint').textContent = data.Csat.Average === null ? '' : `Average ${data.Csat.Average.toFixed(1)} ${RATING_UNIT} from ${data.Csat.Answers} answers.`;
}

/** Links to the CSV exports of what is shown; transcripts only for a role that opens conversations. */
function showDownloads(botId: string, query: URLSearchParams): void {
  const base = `/console/api/bots/${encodeURIComponent(botId)}`;
  $<HTMLAnchorElement>('csv-figures').href = `${base}/analytics.csv?${query}`;
  $<HTMLAnchorElement>('csv-transcripts').href = `${base}/transcripts.csv?${query}`;
  $('csv-transcripts-item').hidden = !seesConversations;
}

let seesConversations = false;

/** The figures of another period must not stand under an error: the report goes until the next answer. */
function failed(message: string): void {
  $('report').hidden = true;
  status(message, true);
}

function setPeriod(days: number): void {
  const today = Date.now();
  $<HTMLInputElement>('to').value = isoDay(today);
  $<HTMLInputElement>('from').value = isoDay(today - (days - 1) * DAY);
}

/** bot and period in the address, so that a view can be shared and survives a reload */
function remember(botId: string, from: string, to: string): void {
  const params = new URLSearchParams({ bot: botId, from, to });
  history.replaceState(null, '', `?${params}`);
}

async function show(): Promise<void> {
  const botId = $<HTMLSelectElement>('bot').value;
  const fromField = $<HTMLInputElement>('from');
  const from = fromField.value;
  const to = $<HTMLInputElement>('to').value;
  if (!botId) return;
  drawConsoleNav($('console-nav'), 'analytics', { botId });
  const reversed = from !== '' && to !== '' && from > to;
  fromField.setAttribute('aria-invalid', String(reversed));
  if (reversed) return failed('The period is reversed: "From" must not be after "To".');
  status('Loading…');
  remember(botId, from, to);
  const query = new URLSearchParams({ from, to });
  try {
    const [data, flow] = await Promise.all([
      get<BotAnalytics>(`/bots/${encodeURIComponent(botId)}/analytics?${query}`),
      get<BotFlow>(`/bots/${encodeURIComponent(botId)}/flow`).catch((error: Error) => error),
    ]);
    $('report').hidden = false;
    showHeadlines(data);
    showDownloads(botId, query);
    $('dropoff-hint').textContent = `Conversations last active in the period and idle for ${data.IdleMinutes} minutes or more, by the interaction they stand at.`;
    drawCharts(data);
    offerRatingQuestion($('rating-offer'), botId, data);
    if (flow instanceof Error) {
      shownFlow = null;
      $('flow').replaceChildren();
      $('flow-empty').hidden = false;
      $('flow-empty').textContent = isSignedOut(flow) ? 'Sign in again to see the flow.' : `No flow to show: ${flow.message}`;
    } else {
      $('flow-empty').hidden = flow.Nodes.length > 0;
      $('flow-empty').textContent = 'The live version has no behaviours.';
      drawFlow($('flow'), flow);
      shownFlow = flow;
    }
    status(`${data.BotName}, ${data.From} to ${data.To}.`);
  } catch (error) {
    if (isSignedOut(error)) return signedOut();
    failed((error as Error).message);
  }
}

function signedOut(): void {
  $('period').hidden = true;
  $('report').hidden = true;
  $('signed-out').hidden = false;
  status('');
}

async function start(): Promise<void> {
  drawConsoleNav($('console-nav'), 'analytics');
  const params = new URLSearchParams(location.search);
  setPeriod(30);
  if (params.get('from')) $<HTMLInputElement>('from').value = params.get('from')!;
  if (params.get('to')) $<HTMLInputElement>('to').value = params.get('to')!;
  let bots: BotChoice[];
  try {
    const me = await signedIn();
    drawConsoleNav($('console-nav'), 'analytics', { role: me.Role });
    if (me.Role === 'agent') {
      $('period').hidden = true;
      return status(`Your role (${me.Role}) opens conversations only. Analytics are for designers and admins: ask an admin for the designer role.`, true);
    }
    bots = await accountBots();
    seesConversations = me.Role !== 'designer';
  } catch (error) {
    if (isSignedOut(error)) return signedOut();
    return status((error as Error).message, true);
  }
  const select = $<HTMLSelectElement>('bot');
  fillBotPicker(select, bots, params.get('bot'));
  if (bots.length === 0) return status('This account has no bots yet.');
  $('period').addEventListener('submit', (event) => {
    event.preventDefault();
    void show();
  });
  select.addEventListener('change', () => void show());
  for (const button of document.querySelectorAll<HTMLButtonElement>('.preset')) {
    button.addEventListener('click', () => {
      setPeriod(Number(button.dataset.days));
      void show();
    });
  }
  await show();
}

void start();
