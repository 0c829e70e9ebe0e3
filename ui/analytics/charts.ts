// The charts of the page, drawn with Chart.js (tree-shaken: only the controllers and elements
// used are registered). Each chart is a card of index.html with a canvas and an `.empty` text: a
// period with nothing to draw shows the text, never bare axes. Every canvas gets a summary of its
// numbers as its accessible name, since a screen reader cannot read a chart. A period of one day
// draws bars: a line needs two days to mean anything.
import { BarController, BarElement, CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';
import { duration, percent } from './compare';
import type { BotAnalytics } from './types';

Chart.register(BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#4b5563';

const COLORS = { blue: '#2458d6', amber: '#b45309', green: '#047857', grey: '#6b7280', red: '#b91c1c', violet: '#7c3aed' };
const RATING_COLORS = ['#b91c1c', '#c2410c', '#a16207', '#4d7c0f', '#047857'];
const charts = new Map<string, Chart>();

/** "Nov 3" for a YYYY-MM-DD day: short enough for 30 ticks on a phone. */
const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const common = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false as const,
  interaction: { mode: 'index' as const, intersect: false },
  plugins: { legend: { position: 'bottom' as const, labels: { boxWidth: 12 } } },
};
const countAxis = { beginAtZero: true, ticks: { precision: 0 } };
const dayAxis = { ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 8 }, grid: { display: false } };

/** A chart of the page: its canvas id, when it has nothing to draw, and what to draw. */
interface ChartCard {
  id: string;
  empty(data: BotAnalytics): boolean;
  draw(data: BotAnalytics, period: Period): { config: ChartConfiguration; summary: string };
}

interface Period {
  labels: string[];
  /** 'bar' for a single day, else 'line' */
  series: 'bar' | 'line';
  /** "from … to …" for the summaries */
  words: string;
  pointRadius: number;
}

const m = (d: BotAnalytics) => d.Totals;

const CARDS: ChartCard[] = [
  {
    id: 'chart-conversations',
    empty: (d) => m(d).Conversations + m(d).HandOvers === 0,
    draw: (d, p) => ({
      config: {
        type: p.series,
        data: {
          labels: p.labels,
          datasets: [
            { label: 'Conversations started', data: d.Days.map((x) => x.Conversations), borderColor: COLORS.blue, backgroundColor: p.series === 'bar' ? COLORS.blue : 'rgba(36, 88, 214, .12)', fill: true, cubicInterpolationMode: 'monotone', pointRadius: p.pointRadius },
            { label: 'Hand-overs to a person', data: d.Days.map((x) => x.HandOvers), borderColor: COLORS.amber, backgroundColor: COLORS.amber, cubicInterpolationMode: 'monotone', pointRadius: p.pointRadius },
          ],
        },
        options: { ...common, scales: { x: dayAxis, y: countAxis } },
      } as ChartConfiguration,
      summary: `${p.series === 'bar' ? 'Bar' : 'Line'} chart ${p.words}: ${m(d).Conversations} conversations started and ${m(d).HandOvers} hand-overs to a person.`,
    }),
  },
  {
    id: 'chart-messages',
    empty: (d) => m(d).UserMessages + m(d).BotMessages + m(d).OperatorMessages === 0,
    draw: (d, p) => ({
      config: {
        type: 'bar',
        data: {
          labels: p.labels,
          datasets: [
            { label: 'User', data: d.Days.map((x) => x.UserMessages), backgroundColor: COLORS.blue },
            { label: 'Bot', data: d.Days.map((x) => x.BotMessages), backgroundColor: COLORS.grey },
            { label: 'Operator', data: d.Days.map((x) => x.OperatorMessages), backgroundColor: COLORS.green },
          ],
        },
        options: { ...common, scales: { x: { ...dayAxis, stacked: true }, y: { ...countAxis, stacked: true } } },
      },
      summary: `Stacked bar chart ${p.words}: ${m(d).UserMessages} user, ${m(d).BotMessages} bot and ${m(d).OperatorMessages} operator messages.`,
    }),
  },
  {
    id: 'chart-waits',
    empty: (d) => d.Waits.Waiting.Count + d.Waits.FirstResponse.Count === 0,
    draw: (d, p) => {
      // drawn in minutes, so the axis ticks fall on whole minutes
      const line = (label: string, values: (number | null)[], color: string, dashed: boolean) => ({
        label, data: values.map((v) => (v === null ? null : v / 60)), borderColor: color, backgroundColor: dashed ? `${color}99` : color, borderDash: dashed ? [6, 4] : [], spanGaps: true, pointRadius: 3,
      });
      const w = d.Waits;
      return {
        config: {
          type: p.series,
          data: {
            labels: p.labels,
            datasets: [
              line('Waiting, median', d.Days.map((x) => x.WaitP50Seconds), COLORS.blue, false),
              line('Waiting, p90', d.Days.map((x) => x.WaitP90Seconds), COLORS.blue, true),
              line('First response, median', d.Days.map((x) => x.FirstResponseP50Seconds), COLORS.green, false),
              line('First response, p90', d.Days.map((x) => x.FirstResponseP90Seconds), COLORS.green, true),
            ],
          },
          options: {
            ...common,
            scales: { x: dayAxis, y: { beginAtZero: true, title: { display: true, text: 'minutes' }, ticks: { precision: 1 } } },
            plugins: { ...common.plugins, tooltip: { callbacks: { label: (c: { dataset: { label?: string }; parsed: { y: number | null } }) => `${c.dataset.label}: ${c.parsed.y === null ? '–' : duration(Math.round(c.parsed.y * 60))}` } } },
          },
        } as ChartConfiguration,
        summary: `${p.series === 'bar' ? 'Bar' : 'Line'} chart ${p.words}: of ${w.Requests} waits for a person, ${w.Waiting.Count} taken over after ${spread(w.Waiting)}; ${w.FirstResponse.Count} answered after ${spread(w.FirstResponse)}.`,
      };
    },
  },
  {
    id: 'chart-csat',
    empty: (d) => d.Csat.Answers === 0,
    draw: (d, p) => ({
      config: {
        type: 'bar',
        data: { labels: ['1', '2', '3', '4', '5'], datasets: [{ label: 'Answers', data: d.Csat.Distribution, backgroundColor: RATING_COLORS, borderRadius: 4 }] },
        options: { ...common, plugins: { legend: { display: false } }, scales: { x: { grid: { display: false }, title: { display: true, text: 'Rating (1 poor, 5 great)' } }, y: countAxis } },
      },
      summary: `Bar chart ${p.words}: ${d.Csat.Answers} CSAT answers, average ${d.Csat.Average?.toFixed(1)}; ${d.Csat.Distribution.map((n, i) => `${n} rated ${i + 1}`).join(', ')}.`,
    }),
  },
  {
    id: 'chart-fallback',
    empty: (d) => m(d).UserMessages === 0,
    draw: (d, p) => ({
      config: {
        type: p.series,
        data: {
          labels: p.labels,
          datasets: [
            {
              label: 'Share of user messages that reached a fallback',
              data: d.Days.map((x) => (x.UserMessages === 0 ? null : Math.min(100, (x.MissedTexts / x.UserMessages) * 100))),
              borderColor: COLORS.red,
              backgroundColor: p.series === 'bar' ? COLORS.red : 'rgba(185, 28, 28, .1)',
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
          scales: { x: dayAxis, y: { beginAtZero: true, suggestedMax: 100, ticks: { callback: (v: number | string) => `${v}%` } } },
          plugins: { ...common.plugins, tooltip: { callbacks: { label: (c: { parsed: { y: number | null } }) => `${Math.round(Number(c.parsed.y) * 10) / 10}% reached a fallback` } } },
        },
      } as ChartConfiguration,
      summary: `${p.series === 'bar' ? 'Bar' : 'Line'} chart ${p.words}: ${m(d).MissedTexts} of ${m(d).UserMessages} user messages (${percent(m(d).FallbackShare)}) reached a fallback.`,
    }),
  },
  {
    id: 'chart-dropoff',
    empty: (d) => d.DropOff.length === 0,
    draw: (d) => {
      const stops = d.DropOff.slice(0, 12);
      const stopLabel = (s: BotAnalytics['DropOff'][number]) => (s.Interaction === null ? 'not started' : `${s.Behaviour} › ${s.Interaction}`);
      return {
        config: {
          type: 'bar',
          data: { labels: stops.map(stopLabel), datasets: [{ label: 'Conversations that stopped here', data: stops.map((s) => s.Conversations), backgroundColor: COLORS.amber, borderRadius: 4 }] },
          options: { ...common, indexAxis: 'y', interaction: { mode: 'nearest', intersect: true }, plugins: { legend: { display: false } }, scales: { x: countAxis, y: { grid: { display: false } } } },
        },
        summary: `Bar chart: conversations stopped at ${stops.map((s) => `${stopLabel(s)} (${s.Conversations})`).join(', ')}.`,
      };
    },
  },
  {
    // knowledge.md: per day, the questions answered from the bot's knowledge and those left unanswered
    id: 'chart-knowledge',
    empty: (d) => m(d).KnowledgeAnswered + m(d).KnowledgeUnanswered === 0,
    draw: (d, p) => ({
      config: {
        type: 'bar',
        data: {
          labels: p.labels,
          datasets: [
            { label: 'Answered', data: d.Days.map((x) => x.KnowledgeAnswered), backgroundColor: COLORS.green },
            { label: 'Not answered', data: d.Days.map((x) => x.KnowledgeUnanswered), backgroundColor: COLORS.red },
          ],
        },
        options: { ...common, scales: { x: { ...dayAxis, stacked: true }, y: { ...countAxis, stacked: true } } },
      },
      summary: `Stacked bar chart ${p.words}: ${m(d).KnowledgeAnswered + m(d).KnowledgeUnanswered} questions asked of the knowledge, ${m(d).KnowledgeAnswered} answered and ${m(d).KnowledgeUnanswered} not answered.`,
    }),
  },
];

const spread = (x: { P50Seconds: number | null; P90Seconds: number | null }) =>
  x.P50Seconds === null ? 'no time yet' : `${duration(x.P50Seconds)} (median), ${duration(x.P90Seconds ?? x.P50Seconds)} (p90)`;

export function drawCharts(data: BotAnalytics): void {
  const period: Period = {
    labels: data.Days.map((d) => shortDate(d.Date)),
    series: data.Days.length === 1 ? 'bar' : 'line',
    words: `from ${data.From} to ${data.To}`,
    // Dots on every day crowd a long period; the tooltip still shows each day.
    pointRadius: data.Days.length > 14 ? 0 : 2,
  };
  for (const card of CARDS) {
    const canvas = document.getElementById(card.id) as HTMLCanvasElement;
    const box = canvas.parentElement!;
    const empty = card.empty(data);
    box.hidden = empty;
    (box.parentElement!.querySelector('.empty') as HTMLElement).hidden = !empty;
    charts.get(card.id)?.destroy();
    charts.delete(card.id);
    if (empty) continue;
    const { config, summary } = card.draw(data, period);
    canvas.setAttribute('aria-label', summary);
    charts.set(card.id, new Chart(canvas, config));
  }
}
