// The analytics page (/console/analytics): a signed-in operator picks a bot and a period; the page
// shows the bot's analytics as charts and its live flow as a picture. It reads the console API
// with the console's session cookie; everything it writes into the page goes through textContent.
import { drawCharts, percent } from './charts';
import { drawFlow } from './flow-graph';
import { drawKnowledgeChart } from './knowledge-chart';
import type { BotAnalytics, BotFlow } from './types';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

class SignedOut extends Error {}

/** the flow on screen, drawn again when the window's width changes (it fits or scrolls by width) */
let shownFlow: BotFlow | null = null;
let resizing = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = window.setTimeout(() => shownFlow && drawFlow($('flow'), shownFlow), 150);
});

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`/console/api${path}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (res.status === 401) throw new SignedOut();
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.Message ?? `The server answered ${res.status}.`);
  return body as T;
}

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
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
  const from = $<HTMLInputElement>('from').value;
  const to = $<HTMLInputElement>('to').value;
  if (!botId) return;
  status('Loading…');
  remember(botId, from, to);
  const query = new URLSearchParams({ from, to });
  try {
    const [data, flow] = await Promise.all([
      get<BotAnalytics>(`/bots/${encodeURIComponent(botId)}/analytics?${query}`),
      get<BotFlow>(`/bots/${encodeURIComponent(botId)}/flow`).catch((error: Error) => error),
    ]);
    $('report').hidden = false;
    const t = data.Totals;
    $('total-conversations').textContent = t.Conversations.toLocaleString('en');
    $('total-messages').textContent = (t.UserMessages + t.BotMessages + t.OperatorMessages).toLocaleString('en');
    $('total-handovers').textContent = t.HandOvers.toLocaleString('en');
    $('total-fallback').textContent = percent(t.FallbackShare);
    $('dropoff-hint').textContent = `Conversations last active in the period and idle for ${data.IdleMinutes} minutes or more, by the interaction they stand at.`;
    drawCharts(data);
    drawKnowledgeChart(data);
    $('dropoff-chart').hidden = data.DropOff.length === 0;
    $('dropoff-empty').hidden = data.DropOff.length > 0;
    if (flow instanceof Error) {
      shownFlow = null;
      $('flow').replaceChildren();
      $('flow-empty').hidden = false;
      $('flow-empty').textContent = flow instanceof SignedOut ? 'Sign in again to see the flow.' : `No flow to show: ${flow.message}`;
    } else {
      $('flow-empty').hidden = flow.Nodes.length > 0;
      $('flow-empty').textContent = 'The live version has no behaviours.';
      drawFlow($('flow'), flow);
      shownFlow = flow;
    }
    status(`${data.BotName}, ${data.From} to ${data.To}.`);
  } catch (error) {
    if (error instanceof SignedOut) return signedOut();
    status((error as Error).message, true);
  }
}

function signedOut(): void {
  $('period').hidden = true;
  $('report').hidden = true;
  $('signed-out').hidden = false;
  status('');
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  setPeriod(30);
  if (params.get('from')) $<HTMLInputElement>('from').value = params.get('from')!;
  if (params.get('to')) $<HTMLInputElement>('to').value = params.get('to')!;
  let bots: { BotId: string; Name: string; Published: boolean }[];
  try {
    bots = (await get<{ Result: typeof bots }>('/bots')).Result;
  } catch (error) {
    if (error instanceof SignedOut) return signedOut();
    return status((error as Error).message, true);
  }
  const select = $<HTMLSelectElement>('bot');
  for (const bot of bots) {
    const option = document.createElement('option');
    option.value = bot.BotId;
    option.textContent = bot.Published ? bot.Name : `${bot.Name} (not published)`;
    select.append(option);
  }
  if (bots.length === 0) return status('This account has no bots yet.');
  const wanted = params.get('bot');
  if (wanted && bots.some((b) => b.BotId === wanted)) select.value = wanted;
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
