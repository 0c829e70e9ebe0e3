// Defensive readers for action fields: a validated file has the right shapes, but the engine must
// not crash on one that slipped through (a malformed action is skipped, bot-format.md rule 3).

export function stringField(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function objectList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item)) : [];
}

export function numberField(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A text with `{{...}}` is a template: its value is only known at run time. */
export function isTemplate(value: string): boolean {
  return value.includes('{{');
}
