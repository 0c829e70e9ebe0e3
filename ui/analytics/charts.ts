// The four charts of the page, drawn with Chart.js (tree-shaken: only the controllers and elements
// used are registered). Every canvas also gets a text summary as its accessible name, since a
// screen reader cannot read a chart.
import { BarController, BarElement, CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';
import type { BotAnalytics } from './types';

Chart.register(BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#4b5563';

const COLORS = { blue: '#2458d6', amber: '#b45309', green: '#047857', grey: '#6b7280', red: '#b91c1c' };
const charts = new Map<string, Chart>();

/** "Nov 3" for a YYYY-MM-DD day: short enough for 30 ticks on a phone. */
const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

function draw(id: string, config: ChartConfiguration, summary: string): void {
  charts.get(id)?.destroy();
  const canvas = document.getElementById(id) as HTMLCanvasElement;
  canvas.setAttribute('aria-label', summary);
  charts.set(id, new Chart(canvas, config));
}

const common = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false as const,
  interaction: { mode: 'index' as const, intersect: false },
  plugins: { legend: { position: 'bottom' as const, labels: { boxWidth: 12 } } },
};
const countAxis = { beginAtZero: true, ticks: { precision: 0 } };
const dayAxis = { ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 8 }, grid: { display: false } };

export function drawCharts(data: BotAnalytics): void {
  const labels = data.Days.map((d) => shortDate(d.Date));
  const t = data.Totals;
  const period = `from ${data.From} to ${data.To}`;
  // Dots on every day crowd a long period; the tooltip still shows each day.
  const pointRadius = data.Days.length > 14 ? 0 : 2;

  draw('chart-conversations', {
    type: 'line',
    data: {
      labels,
      datasets: [
        { label: 'Conversations started', data: data.Days.map((d) => d.Conversations), borderColor: COLORS.blue, backgroundColor: 'rgba(36, 88, 214, .12)', fill: true, cubicInterpolationMode: 'monotone', pointRadius },
        { label: 'Hand-overs to a person', data: data.Days.map((d) => d.HandOvers), borderColor: COLORS.amber, backgroundColor: COLORS.amber, cubicInterpolationMode: 'monotone', pointRadius },
      ],
    },
    options: { ...common, scales: { x: dayAxis, y: countAxis } },
  }, `Line chart ${period}: ${t.Conversations} conversations started and ${t.HandOvers} hand-overs to a person.`);

  draw('chart-messages', {
    type: 'bar',
    data: {
      labels,
      datasets: [
        { label: 'User', data: data.Days.map((d) => d.UserMessages), backgroundColor: COLORS.blue },
        { label: 'Bot', data: data.Days.map((d) => d.BotMessages), backgroundColor: COLORS.grey },
        { label: 'Operator', data: data.Days.map((d) => d.OperatorMessages), backgroundColor: COLORS.green },
      ],
    },
    options: { ...common, scales: { x: { ...dayAxis, stacked: true }, y: { ...countAxis, stacked: true } } },
  }, `Stacked bar chart ${period}: ${t.UserMessages} user, ${t.BotMessages} bot and ${t.OperatorMessages} operator messages.`);

  draw('chart-fallback', {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: 'Share of user messages that reached a fallback',
          data: data.Days.map((d) => (d.UserMessages === 0 ? null : Math.min(100, (d.MissedTexts / d.UserMessages) * 100))),
          borderColor: COLORS.red,
          backgroundColor: 'rgba(185, 28, 28, .1)',
          fill: true,
          spanGaps: true,
          cubicInterpolationMode: 'monotone',
          // days without user messages have no share: a lone day must still show as a dot
          pointRadius: 2,
        },
      ],
    },
    options: {
      ...common,
      scales: { x: dayAxis, y: { beginAtZero: true, suggestedMax: 100, ticks: { callback: (v) => `${v}%` } } },
      plugins: { ...common.plugins, tooltip: { callbacks: { label: (c) => `${Math.round(Number(c.parsed.y) * 10) / 10}% reached a fallback` } } },
    },
  }, `Line chart ${period}: ${t.MissedTexts} of ${t.UserMessages} user messages (${percent(t.FallbackShare)}) reached a fallback.`);

  const stops = data.DropOff.slice(0, 12);
  const stopLabel = (s: BotAnalytics['DropOff'][number]) => (s.Interaction === null ? 'not started' : `${s.Behaviour} › ${s.Interaction}`);
  draw('chart-dropoff', {
    type: 'bar',
    data: {
      labels: stops.map(stopLabel),
      datasets: [{ label: 'Conversations that stopped here', data: stops.map((s) => s.Conversations), backgroundColor: COLORS.amber, borderRadius: 4 }],
    },
    options: { ...common, indexAxis: 'y', interaction: { mode: 'nearest', intersect: true }, plugins: { legend: { display: false } }, scales: { x: countAxis, y: { grid: { display: false } } } },
  }, stops.length === 0 ? `No conversation stopped ${period}.` : `Bar chart: conversations stopped at ${stops.map((s) => `${stopLabel(s)} (${s.Conversations})`).join(', ')}.`);
}

export { percent };
// for the cards drawn in files of their own (knowledge-chart.ts)
export { COLORS, common, countAxis, dayAxis, draw, shortDate };
