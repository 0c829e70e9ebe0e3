// Each headline figure beside the previous period of the same length (docs/analytics.md "The
// previous period"): the words under a figure, e.g. "+50% vs previous period (2)". Pure, so the
// rules are plain: a count changes by a percentage, a share by percentage points, a duration by
// its difference, an average rating by its difference; no figure before means nothing to compare.

export type Figure = 'count' | 'share' | 'seconds' | 'rating';

/** "45 s", "12 min", "1.5 h": short enough for a tile and a chart tick. */
export function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

export const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

export function formatFigure(value: number | null, kind: Figure): string {
  if (value === null) return '–';
  if (kind === 'share') return percent(value);
  if (kind === 'seconds') return duration(value);
  if (kind === 'rating') return value.toFixed(1);
  return value.toLocaleString('en');
}

const signed = (n: number, unit = '') => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n)}${unit}`;

export function change(current: number | null, previous: number | null, kind: Figure): string {
  const before = `vs previous period (${formatFigure(previous, kind)})`;
  if (previous === null) return 'No figure in the previous period';
  if (current === null) return `No figure now; ${formatFigure(previous, kind)} in the previous period`;
  if (current === previous) return `No change ${before}`;
  if (kind === 'share') return `${signed(Math.round((current - previous) * 1000) / 10, ' pts')} ${before}`;
  if (kind === 'seconds') return `${current > previous ? '+' : '−'}${duration(Math.abs(current - previous))} ${before}`;
  if (kind === 'rating') return `${signed(Math.round((current - previous) * 10) / 10)} ${before}`;
  if (previous === 0) return 'Up from 0 in the previous period';
  return `${signed(Math.round(((current - previous) / previous) * 100), '%')} ${before}`;
}
