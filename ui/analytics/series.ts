// How the series of a chart are told apart, and the legend that names them (issue 37: "lines that
// do not hide each other"). Each line of a chart has its own colour AND its own dash pattern AND
// its own marker on every day, so that two lines on the same values still both show (the dashes
// of the one on top let the other through, and the markers differ) and so that colour is never
// the only difference. The legend is HTML under the chart, drawn from the chart's own datasets:
// what it shows is what the chart draws, and a screen reader reads it as a list.

export type Marker = 'circle' | 'rect' | 'triangle' | 'rectRot';

export interface SeriesStyle {
  colour: string;
  dash: number[];
  marker: Marker;
}

/** The styles of the lines of one chart, in order: no two alike in colour, dash or marker. */
export const LINE_STYLES: SeriesStyle[] = [
  { colour: '#2458d6', dash: [], marker: 'circle' },
  { colour: '#b45309', dash: [6, 4], marker: 'rect' },
  { colour: '#047857', dash: [2, 3], marker: 'triangle' },
  { colour: '#7c3aed', dash: [10, 3, 2, 3], marker: 'rectRot' },
];

/** A line dataset of Chart.js in `style`, markers of `pointRadius` on every day (a bar when the chart is drawn as bars). */
export function lineSeries(label: string, data: (number | null)[], style: SeriesStyle, pointRadius: number) {
  return {
    label,
    data,
    borderColor: style.colour,
    backgroundColor: style.colour,
    pointBackgroundColor: style.colour,
    borderDash: style.dash,
    pointStyle: style.marker,
    pointRadius,
    pointHoverRadius: pointRadius + 2,
    borderWidth: 2,
    spanGaps: true,
    cubicInterpolationMode: 'monotone' as const,
  };
}

/** What the legend reads of a Chart.js dataset. */
export interface LegendDataset {
  label?: string;
  borderColor?: unknown;
  backgroundColor?: unknown;
  borderDash?: number[];
  pointStyle?: unknown;
}

const SVG = 'http://www.w3.org/2000/svg';

function svgElement(name: string, attributes: Record<string, string>): SVGElement {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** The marker drawn in the middle of a legend's line, as Chart.js draws it on each day. */
function markerOf(shape: Marker, colour: string): SVGElement {
  const at = { fill: colour, 'data-shape': shape };
  if (shape === 'rect') return svgElement('rect', { ...at, x: '10.5', y: '3.5', width: '7', height: '7' });
  if (shape === 'triangle') return svgElement('polygon', { ...at, points: '14,2.5 18,10 10,10' });
  if (shape === 'rectRot') return svgElement('polygon', { ...at, points: '14,2 19,7 14,12 9,7' });
  return svgElement('circle', { ...at, cx: '14', cy: '7', r: '3.5' });
}

/**
 * The legend of `datasets` in `list` (emptied first): a line with its dash and marker for a line
 * chart, a filled square for bars. A chart of one series gets none: its title names it.
 */
export function drawLegend(list: HTMLElement, datasets: LegendDataset[], kind: 'line' | 'bar'): void {
  list.replaceChildren();
  list.hidden = datasets.length < 2;
  for (const dataset of datasets) {
    const colour = String(kind === 'line' ? dataset.borderColor : dataset.backgroundColor);
    const picture = svgElement('svg', { width: '28', height: '14', viewBox: '0 0 28 14', 'aria-hidden': 'true' });
    if (kind === 'line') {
      picture.append(
        svgElement('line', { x1: '1', y1: '7', x2: '27', y2: '7', stroke: colour, 'stroke-width': '2', 'stroke-dasharray': (dataset.borderDash ?? []).join(' ') || 'none' }),
        markerOf(dataset.pointStyle as Marker, colour),
      );
    } else {
      picture.append(svgElement('rect', { x: '7', y: '1', width: '12', height: '12', rx: '2', fill: colour }));
    }
    const item = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = dataset.label ?? '';
    item.append(picture, name);
    list.append(item);
  }
}
