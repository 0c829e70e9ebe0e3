// Each headline figure beside the previous period of the same length (docs/analytics.md "The
// previous period"): the words under a figure, e.g. "+50% vs previous period (2 conversations)".
// Pure, so the rules are plain: a count changes by a percentage, a share by percentage points, a
// time by its difference in the figure's own unit, an average rating by its difference; no figure
// before means nothing to compare. Every figure is said in its one unit (units.ts).
import { counted, percent, RATING_UNIT, timeIn, type CountNoun, type TimeUnit } from './units';

/** What a figure is, and so how it is said. */
export type Figure = { kind: 'count'; noun: CountNoun } | { kind: 'share' } | { kind: 'time'; unit: TimeUnit } | { kind: 'rating' };

export function formatFigure(value: number | null, figure: Figure): string {
  if (value === null) return '–';
  if (figure.kind === 'share') return percent(value);
  if (figure.kind === 'time') return timeIn(value, figure.unit);
  if (figure.kind === 'rating') return `${value.toFixed(1)} ${RATING_UNIT}`;
  return counted(value, figure.noun);
}

const signed = (n: number, unit = '') => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n)}${unit}`;

export function change(current: number | null, previous: number | null, figure: Figure): string {
  const before = `vs previous period (${formatFigure(previous, figure)})`;
  if (previous === null) return current === null ? 'No figure in this period nor the one before' : 'No figure in the previous period';
  if (current === null) return `No figure now; ${formatFigure(previous, figure)} in the previous period`;
  if (current === previous) return `No change ${before}`;
  if (figure.kind === 'share') return `${signed(Math.round((current - previous) * 1000) / 10, ' pts')} ${before}`;
  if (figure.kind === 'time') return `${current > previous ? '+' : '−'}${timeIn(Math.abs(current - previous), figure.unit)} ${before}`;
  if (figure.kind === 'rating') return `${signed(Math.round((current - previous) * 10) / 10)} ${before}`;
  if (previous === 0) return `Up from 0 in the previous period`;
  return `${signed(Math.round(((current - previous) / previous) * 100), '%')} ${before}`;
}
