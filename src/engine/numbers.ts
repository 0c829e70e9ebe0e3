// Variables are strings; arithmetic reads them as numbers and writes them back (bot-format.md
// "setVariable modes" and "variableSwitch criteria"): unparsable text counts as 0.

const NUMBER_TEXT = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;

/** The number a variable holds; unparsable, empty or unset values read as 0. A decimal comma is accepted. */
export function readNumber(value: string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const text = value.trim();
  if (!NUMBER_TEXT.test(text)) return 0; // rejects "", "0x10", "Infinity", "1 2"
  const parsed = Number(text.replace(',', '.'));
  return Number.isFinite(parsed) ? parsed : 0;
}

/** True when the text is a number as readNumber understands it. */
export function isNumberText(value: string): boolean {
  return NUMBER_TEXT.test(value.trim());
}

/** Numbers are written without a trailing `.0`, and without binary noise such as 0.30000000000000004. */
export function writeNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  if (Number.isInteger(value)) return String(value === 0 ? 0 : value);
  return String(Number(value.toPrecision(15)));
}
