// How the web widget looks on a customer's site (issue 37 "Install"): title, colour, greeting,
// side. The colour carries the widget's white text (header, launcher, the visitor's bubbles), so
// one too light to read white on (contrast under 4.5:1, WCAG AA) is a problem of the bot file.
import { isObj, type Segment } from './walk.js';

export const DEFAULT_WIDGET_COLOR = '#1d4ed8';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Contrast ratio of white text on this colour (1 to 21). */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

export function widgetLookProblems(settings: unknown, out: { path: Segment[]; message: string }[]): void {
  if (!isObj(settings) || !isObj(settings.channels) || !isObj(settings.channels.web)) return;
  const color = settings.channels.web.color;
  if (typeof color !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(color)) return;
  const ratio = contrastWithWhite(color);
  if (ratio < 4.5)
    out.push({
      path: ['settings', 'channels', 'web', 'color'],
      message: `is too light for the widget's white text (contrast ${ratio.toFixed(1)}:1, at least 4.5:1 is needed); choose a darker colour`,
    });
}
