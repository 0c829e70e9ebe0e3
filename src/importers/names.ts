// Names from another platform made valid for a bot file (importers.md: "names that collide or
// break the bot schema … made valid and the change in the report's Changed list"): control
// characters removed, spaces collapsed, at most 100 characters, never empty, unique without
// regard to case in their scope (bot-format.md: names are matched case-insensitively).
import type { ReportBuilder } from './report.js';

/** The longest name an import gives (the nlp section's own bound; plenty for a title). */
export const MAX_IMPORTED_NAME = 100;

// \p{Cc} and \p{Cf}: C0/C1 controls and invisible format characters (bidi overrides among them)
const CONTROL = /[\p{Cc}\p{Cf}]+/gu;

/** A name's cleaned form (no uniqueness): `fallback` when nothing printable is left. */
export function cleanName(raw: unknown, fallback: string): string {
  const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
  const cleaned = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  const cut = [...cleaned].slice(0, MAX_IMPORTED_NAME).join('').trim();
  return cut === '' ? fallback : cut;
}

/** The names given in one scope (a bot's behaviours, a behaviour's interactions, the intents). */
export class NameBook {
  private readonly taken = new Set<string>();

  constructor(
    private readonly report: ReportBuilder,
    /** what the names are, in the report: "interaction name" */
    private readonly kind: string,
  ) {}

  /** A valid unused name for `raw`; a change is reported at `path`. */
  name(raw: unknown, path: string, fallback: string): string {
    const clean = cleanName(raw, fallback);
    let unique = clean;
    for (let n = 2; this.taken.has(unique.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      unique = [...clean].slice(0, MAX_IMPORTED_NAME - suffix.length).join('') + suffix;
    }
    this.taken.add(unique.toLowerCase());
    if (unique !== raw) {
      const shown = typeof raw === 'string' ? JSON.stringify([...raw].slice(0, 60).join('')) : 'no name';
      const why =
        clean !== unique
          ? `another ${this.kind} has the same name`
          : typeof raw !== 'string' || cleanName(raw, '') === ''
            ? 'the name was empty'
            : 'a name may not hold control characters, line breaks or more than 100 characters';
      this.report.change(path, `${this.kind} ${shown}`, `renamed to ${JSON.stringify(unique)}: ${why}`);
    }
    return unique;
  }

  /** Whether `name` is given already (any case). */
  has(name: string): boolean {
    return this.taken.has(name.toLowerCase());
  }
}
