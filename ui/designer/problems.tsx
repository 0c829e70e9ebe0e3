// The problems banner (issue 37 item 6): every problem of the draft, the page's own and the
// server's from the last save, each a button that opens the place it names and focuses its field.
// A draft with problems is saved all the same; the banner says that publishing waits for them.
import { fieldId } from './form-context';
import { pathSegments, problemPlace, type Place, type Problem } from './model';
import { jsonPath } from './schema';

interface Props {
  problems: Problem[];
  /** opens the interaction's form, or the bot's panel when the problem is not in an interaction */
  onOpen: (place: Place | null) => void;
}

/** Ids a form gives the field at `path`, or the control that stands for it (a goTo's target, a name, a list's Add). */
const idsAt = (path: string, b?: number) => {
  const id = fieldId(path);
  return [id, `${id}-target`, `${id}-kind`, `${id}-list`, `${id}-add-item`, ...(b === undefined ? [] : [`behaviour-${b}-name`])];
};

/**
 * Focuses the field a problem names, or the nearest field that holds it; the form is drawn after
 * the place opens, so it is looked for over a few frames. False when nothing fits.
 */
function focusField(problem: Problem, tries = 30): void {
  const segments = pathSegments(problem.Path);
  const { place, rest } = problemPlace(problem);
  const candidates: string[] = [];
  if (place && rest.length === 1 && rest[0] === 'name') candidates.push('interaction-name');
  for (let n = segments.length; n > 0; n--) {
    const prefix = segments.slice(0, n).reduce<string>((path, key) => jsonPath(path, key), '$');
    // a behaviour's own name field is named after its index
    const behaviourName = n === 3 && segments[0] === 'behaviours' && segments[2] === 'name' ? (segments[1] as number) : undefined;
    candidates.push(...idsAt(prefix, behaviourName));
  }
  candidates.push(place ? 'inspector-title' : 'bot-title');
  // the field itself, else the first field inside what the path names (an action: its first field)
  const within = `${fieldId(problem.Path).replace(/-$/, '')}-`; // a path ending in `]` already ends in '-'
  const inside = document.querySelector<HTMLElement>(['input', 'select', 'textarea'].map((tag) => `${tag}[id^="${within}"]`).join(', '));
  const exact = document.getElementById(candidates[0]!) ?? inside;
  const found = exact ?? candidates.map((id) => document.getElementById(id)).find((el): el is HTMLElement => el !== null);
  // the exact field may not be drawn yet: wait for it a little before settling for a nearer one
  if (!exact && tries > 0) {
    requestAnimationFrame(() => focusField(problem, tries - 1));
    return;
  }
  if (!found) return;
  if (found.tabIndex < 0 && !found.hasAttribute('tabindex')) found.setAttribute('tabindex', '-1');
  found.scrollIntoView({ block: 'center' });
  found.focus();
}

export function ProblemsBanner({ problems, onOpen }: Props) {
  if (problems.length === 0) return null;
  const open = (problem: Problem) => {
    onOpen(problemPlace(problem).place);
    requestAnimationFrame(() => focusField(problem));
  };
  return (
    <div className="problems" role="region" aria-label="Problems">
      <strong>
        {problems.length} problem{problems.length > 1 ? 's' : ''}
      </strong>{' '}
      — the draft is saved with {problems.length > 1 ? 'them' : 'it'}; publishing waits until {problems.length > 1 ? 'they are' : 'it is'} fixed.
      <ul>
        {problems.map((p) => (
          <li key={`${p.Path}\n${p.Message}`}>
            <button type="button" className="link" onClick={() => open(p)} aria-label={`Go to ${p.Path}: ${p.Message}`}>
              <code>{p.Path}</code> {p.Message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Dead ends and the like: said, each a button to its interaction, but publishing stays allowed. */
export function WarningsBanner({ warnings, onOpen }: { warnings: Problem[]; onOpen: (place: Place | null) => void }) {
  if (warnings.length === 0) return null;
  return (
    <div className="warnings" role="region" aria-label="Warnings">
      <strong>
        {warnings.length} warning{warnings.length > 1 ? 's' : ''}
      </strong>{' '}
      — publishing is allowed, but a user may get stuck here:
      <ul>
        {warnings.map((w) => (
          <li key={w.Path}>
            <button type="button" className="link" onClick={() => onOpen(problemPlace(w).place)}>
              {w.Message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
