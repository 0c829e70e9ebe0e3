// The charts of the page, drawn with Chart.js (tree-shaken: only the controllers and elements
// used are registered). Each chart is a card of body.html with a canvas and an `.empty` text: a
// period with nothing to draw shows the text, never bare axes. Every canvas gets a summary of its
// numbers as its accessible name, since a screen reader cannot read a chart. A period of one day
// draws bars: a line needs two days to mean anything. Each chart's value axis is titled with the
// unit its headline tile uses (units.ts); lines are told apart and named as series.ts says.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip, type ChartConfiguration } from 'chart.js';
import { drawLegend, LINE_STYLES, lineSeries, type LegendDataset } from './series';
import type { BotAnalytics } from './types';
import { counted, CONVERSATIONS, MESSAGES, percent, QUESTIONS, RATING_UNIT, timeIn, waitsUnit, inTimeUnit, type TimeUnit } from './units';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#4b5563';

const COLORS = { blue: '#2458d6', amber: '#b45309', green: '#047857', grey: '#6b7280', red: '#b91c1c' };
const RATING_COLORS = ['#b91c1c', '#c2410c', '#a16207', '#4d7c0f', '#047857'];
const charts = new Map<string, Chart>();

/** "Nov 3" for a YYYY-MM-DD day: short enough for 30 ticks on a phone. */
const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const common = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false as const,
  interaction: { mode: 'index' as const, intersect: false },
  // the legend is HTML under the chart (series.ts)
  plugins: { legend: { display: false } },
};
/** A value axis titled with the figure's unit. */
const titled = (unit: string) => ({ display: true, text: unit });
const countAxis = (unit: string) => ({ beginAtZero: true, ticks: { precision: 0 }, title: titled(unit) });
const dayAxis = { ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 8 }, grid: { display: false } };

/** A chart of the page: its canvas id, the unit of its values, when it has nothing to draw, and what to draw. */
interface ChartCard {
  id: string;
  unit(data: BotAnalytics): string;
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

/** Bars of `datasets` stacked by day, counted in `unit` (messages by sender, questions by outcome). */
const stackedBars = (p: Period, unit: string, datasets: { label: string; data: number[]; backgroundColor: string }[]): ChartConfiguration => ({
  type: 'bar',
  data: { labels: p.labels, datasets },
  options: { ...common, scales: { x: { ...dayAxis, stacked: true }, y: { ...countAxis(unit), stacked: true } } },
});

const m = (d: BotAnalytics) => d.Totals;
const kindOf = (p: Period) => (p.series === 'bar' ? 'Bar' : 'Line');
const waitSpread = (x: { P50Seconds: number | null; P90Seconds: number | null }, unit: TimeUnit) =>
  x.P50Seconds === null ? 'no time yet' : `${timeIn(x.P50Seconds, unit)} (median), ${timeIn(x.P90Seconds ?? x.P50Seconds, unit)} (p90)`;

const CARDS: ChartCard[] = [
  {
    id: 'chart-conversations',
    unit: () => CONVERSATIONS.many,
    empty: (d) => m(d).Conversations + m(d).HandOvers === 0,
    draw: (d, p) => ({
      config: {
        type: p.series,
        data: {
          labels: p.labels,
          datasets: [
            lineSeries(
              'Conversations started',
              d.Days.map((x) => x.Conversations),
              LINE_STYLES[0],
              p.pointRadius,
            ),
            lineSeries(
              'Conversations handed over to a person',
              d.Days.map((x) => x.HandOvers),
              LINE_STYLES[1],
              p.pointRadius,
            ),
          ],
        },
        options: { ...common, scales: { x: dayAxis, y: countAxis(CONVERSATIONS.many) } },
      } as ChartConfiguration,
      summary: `${kindOf(p)} chart ${p.words}: ${counted(m(d).Conversations, CONVERSATIONS)} started and ${counted(m(d).HandOvers, CONVERSATIONS)} handed over to a person.`,
    }),
  },
  {
    id: 'chart-messages',
    unit: () => MESSAGES.many,
    empty: (d) => m(d).UserMessages + m(d).BotMessages + m(d).OperatorMessages === 0,
    draw: (d, p) => ({
      config: stackedBars(p, MESSAGES.many, [
        { label: 'From users', data: d.Days.map((x) => x.UserMessages), backgroundColor: COLORS.blue },
        { label: 'From the bot', data: d.Days.map((x) => x.BotMessages), backgroundColor: COLORS.grey },
        { label: 'From operators', data: d.Days.map((x) => x.OperatorMessages), backgroundColor: COLORS.green },
      ]),
      summary: `Stacked bar chart ${p.words}: ${counted(m(d).UserMessages + m(d).BotMessages + m(d).OperatorMessages, MESSAGES)}, ${m(d).UserMessages} from users, ${m(d).BotMessages} from the bot and ${m(d).OperatorMessages} from operators.`,
    }),
  },
  {
    id: 'chart-waits',
    unit: (d) => waitsUnit(d).name,
    empty: (d) => d.Waits.Waiting.Count + d.Waits.FirstResponse.Count === 0,
    draw: (d, p) => {
      // drawn in the unit of the waiting tiles, so that the axis and the tiles say the same
      const unit = waitsUnit(d);
      const line = (label: string, values: (number | null)[], style: number) =>
        lineSeries(
          label,
          values.map((v) => (v === null ? null : inTimeUnit(v, unit))),
          LINE_STYLES[style],
          Math.max(p.pointRadius, 3),
        );
      const w = d.Waits;
      return {
        config: {
          type: p.series,
          data: {
            labels: p.labels,
            datasets: [
              ...(
                [
                  ['Waiting, median', 'WaitP50Seconds'],
                  ['Waiting, p90', 'WaitP90Seconds'],
                  ['First response, median', 'FirstResponseP50Seconds'],
                  ['First response, p90', 'FirstResponseP90Seconds'],
                ] as const
              ).map(([label, key], i) =>
                line(
                  label,
                  d.Days.map((x) => x[key]),
                  i,
                ),
              ),
            ],
          },
          options: {
            ...common,
            scales: { x: dayAxis, y: { beginAtZero: true, title: titled(unit.name), ticks: { precision: 1 } } },
            plugins: {
              ...common.plugins,
              tooltip: {
                callbacks: { label: (c: { dataset: { label?: string }; parsed: { y: number | null } }) => `${c.dataset.label}: ${c.parsed.y === null ? '–' : `${c.parsed.y} ${unit.name}`}` },
              },
            },
          },
        } as ChartConfiguration,
        summary: `${kindOf(p)} chart ${p.words}: of ${w.Requests} waits for a person, ${w.Waiting.Count} taken over after ${waitSpread(w.Waiting, unit)}; ${w.FirstResponse.Count} answered after ${waitSpread(w.FirstResponse, unit)}.`,
      };
    },
  },
  {
    id: 'chart-csat',
    unit: () => 'answers',
    empty: (d) => d.Csat.Answers === 0,
    draw: (d, p) => ({
      config: {
        type: 'bar',
        data: { labels: ['1', '2', '3', '4', '5'], datasets: [{ label: 'Answers', data: d.Csat.Distribution, backgroundColor: RATING_COLORS, borderRadius: 4 }] },
        options: { ...common, scales: { x: { grid: { display: false }, title: titled(`rating ${RATING_UNIT} (1 poor, 5 great)`) }, y: countAxis('answers') } },
      },
      summary: `Bar chart ${p.words}: ${d.Csat.Answers} CSAT answers, average ${d.Csat.Average?.toFixed(1)} ${RATING_UNIT}; ${d.Csat.Distribution.map((n, i) => `${n} rated ${i + 1}`).join(', ')}.`,
    }),
  },
  {
    id: 'chart-fallback',
    unit: () => '%',
    empty: (d) => m(d).UserMessages === 0,
    draw: (d, p) => ({
      config: {
        type: p.series,
        data: {
          labels: p.labels,
          datasets: [
            // days without user messages have no share: markers on every day, so a lone day still shows
            lineSeries(
              'Share of user messages that reached a fallback',
              d.Days.map((x) => (x.UserMessages === 0 ? null : Math.min(100, (x.MissedTexts / x.UserMessages) * 100))),
              { ...LINE_STYLES[0], colour: COLORS.red },
              Math.max(p.pointRadius, 2),
            ),
          ],
        },
        options: {
          ...common,
          scales: { x: dayAxis, y: { beginAtZero: true, suggestedMax: 100, title: titled('%'), ticks: { callback: (v: number | string) => `${v}%` } } },
          plugins: { ...common.plugins, tooltip: { callbacks: { label: (c: { parsed: { y: number | null } }) => `${Math.round(Number(c.parsed.y) * 10) / 10}% reached a fallback` } } },
        },
      } as ChartConfiguration,
      summary: `${kindOf(p)} chart ${p.words}: ${m(d).MissedTexts} of ${m(d).UserMessages} user messages (${percent(m(d).FallbackShare)}) reached a fallback.`,
    }),
  },
  {
    id: 'chart-dropoff',
    unit: () => CONVERSATIONS.many,
    empty: (d) => d.DropOff.length === 0,
    draw: (d) => {
      const stops = d.DropOff.slice(0, 12);
      const stopLabel = (s: BotAnalytics['DropOff'][number]) => (s.Interaction === null ? 'not started' : `${s.Behaviour} › ${s.Interaction}`);
      return {
        config: {
          type: 'bar',
          data: { labels: stops.map(stopLabel), datasets: [{ label: 'Conversations that stopped here', data: stops.map((s) => s.Conversations), backgroundColor: COLORS.amber, borderRadius: 4 }] },
          options: { ...common, indexAxis: 'y', interaction: { mode: 'nearest', intersect: true }, scales: { x: countAxis(CONVERSATIONS.many), y: { grid: { display: false } } } },
        },
        summary: `Bar chart: ${CONVERSATIONS.many} stopped at ${stops.map((s) => `${stopLabel(s)} (${s.Conversations})`).join(', ')}.`,
      };
    },
  },
  {
    // knowledge.md: per day, the questions answered from the bot's knowledge and those left unanswered
    id: 'chart-knowledge',
    unit: () => QUESTIONS.many,
    empty: (d) => m(d).KnowledgeAnswered + m(d).KnowledgeUnanswered === 0,
    draw: (d, p) => ({
      config: stackedBars(p, QUESTIONS.many, [
        { label: 'Answered', data: d.Days.map((x) => x.KnowledgeAnswered), backgroundColor: COLORS.green },
        { label: 'Not answered', data: d.Days.map((x) => x.KnowledgeUnanswered), backgroundColor: COLORS.red },
      ]),
      summary: `Stacked bar chart ${p.words}: ${counted(m(d).KnowledgeAnswered + m(d).KnowledgeUnanswered, QUESTIONS)} asked of the knowledge, ${m(d).KnowledgeAnswered} answered and ${m(d).KnowledgeUnanswered} not answered.`,
    }),
  },
];

export function drawCharts(data: BotAnalytics): void {
  const period: Period = {
    labels: data.Days.map((d) => shortDate(d.Date)),
    series: data.Days.length === 1 ? 'bar' : 'line',
    words: `from ${data.From} to ${data.To}`,
    // A marker on every day, so that lines on the same values still show apart; smaller on a long period.
    pointRadius: data.Days.length > 31 ? 2 : 3,
  };
  for (const card of CARDS) {
    const canvas = document.getElementById(card.id) as HTMLCanvasElement;
    const box = canvas.parentElement!;
    const empty = card.empty(data);
    box.hidden = empty;
    legendOf(box).hidden = true;
    (box.parentElement!.querySelector('.empty') as HTMLElement).hidden = !empty;
    charts.get(card.id)?.destroy();
    charts.delete(card.id);
    if (empty) continue;
    const { config, summary } = card.draw(data, period);
    canvas.setAttribute('aria-label', summary);
    // the unit of the value axis, as its title says it (read by the tests beside the tiles)
    canvas.dataset.unit = card.unit(data);
    drawLegend(legendOf(box), config.data.datasets as LegendDataset[], config.type === 'bar' ? 'bar' : 'line');
    charts.set(card.id, new Chart(canvas, config));
  }
}

/** The legend list under a chart's box, made on first use. */
function legendOf(box: HTMLElement): HTMLElement {
  if (box.nextElementSibling?.classList.contains('series-legend')) return box.nextElementSibling as HTMLElement;
  const list = document.createElement('ul');
  list.className = 'series-legend';
  list.setAttribute('aria-label', 'Series');
  box.after(list);
  return list;
}
