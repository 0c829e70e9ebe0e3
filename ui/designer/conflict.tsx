// Someone else saved the draft since this page loaded it (412 VERSION_MISMATCH). Nothing is lost
// whatever is chosen: re-apply mine on theirs, or compare both side by side (what differs, part by
// part) and keep mine over theirs, or take theirs with mine one Undo away.
import { same, type BotFile } from './model';
import type { Conflict } from './draft';

interface Props {
  conflict: Conflict;
  mine: BotFile;
  onReapply: () => void;
  onCompare: () => void;
  onKeepMine: (theirVersion: number) => void;
  onTakeTheirs: (theirs: BotFile, theirVersion: number) => void;
  onDismiss: () => void;
}

export interface Difference {
  part: string;
  theirs?: unknown;
  mine?: unknown;
}

const text = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

/** What differs between two drafts: top-level parts, then behaviours' own fields and interactions by name. */
export function differences(theirs: BotFile, mine: BotFile): Difference[] {
  const out: Difference[] = [];
  const keys = new Set([...Object.keys(theirs), ...Object.keys(mine)].filter((k) => k !== 'behaviours' && k !== 'version'));
  for (const key of keys) if (text(theirs[key]) !== text(mine[key])) out.push({ part: key, theirs: theirs[key], mine: mine[key] });
  const names = [...theirs.behaviours.map((b) => b.name), ...mine.behaviours.filter((b) => !theirs.behaviours.some((t) => same(t.name, b.name))).map((b) => b.name)];
  for (const name of names) {
    const t = theirs.behaviours.find((b) => same(b.name, name));
    const m = mine.behaviours.find((b) => same(b.name, name));
    if (!t || !m) {
      out.push({ part: `behaviour ${name}`, theirs: t, mine: m });
      continue;
    }
    const own = (b: typeof t) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'interactions'));
    if (text(own(t)) !== text(own(m))) out.push({ part: `behaviour ${name}`, theirs: own(t), mine: own(m) });
    const steps = [...t.interactions.map((i) => i.name), ...m.interactions.filter((i) => !t.interactions.some((x) => same(x.name, i.name))).map((i) => i.name)];
    for (const step of steps) {
      const ti = t.interactions.find((i) => same(i.name, step));
      const mi = m.interactions.find((i) => same(i.name, step));
      if (text(ti) !== text(mi)) out.push({ part: `${name} › ${step}`, theirs: ti, mine: mi });
    }
  }
  return out;
}

export function ConflictPanel({ conflict, mine, onReapply, onCompare, onKeepMine, onTakeTheirs, onDismiss }: Props) {
  const theirs = conflict.file;
  const list = theirs ? differences(theirs, mine) : [];
  return (
    <div className="conflict" role="alertdialog" aria-labelledby="conflict-title" aria-describedby="conflict-text">
      <h2 id="conflict-title">Someone else saved this draft (version {conflict.theirs}) since you opened it</h2>
      <p id="conflict-text">Your edits are still here and nothing was lost. Load their draft and lay your edits over it (interactions you changed win), or compare both and choose.</p>
      <button type="button" onClick={onReapply}>
        Reload theirs and re-apply mine
      </button>
      {!theirs && (
        <button type="button" className="secondary" onClick={onCompare}>
          Compare both
        </button>
      )}
      <button type="button" className="secondary" onClick={onDismiss}>
        Not now
      </button>
      {theirs && (
        <>
          <p className="hint">{list.length === 0 ? 'Both drafts say the same.' : `${list.length} part${list.length > 1 ? 's differ' : ' differs'}:`}</p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable) */}
          <ul className="both" aria-label="Their draft and yours, part by part" tabIndex={0}>
            {list.map((d) => (
              <li key={d.part}>
                <h3>{d.part}</h3>
                <div className="side-by-side">
                  <section aria-label={`Theirs: ${d.part}`}>
                    <h4>Theirs</h4>
                    <pre>{d.theirs === undefined ? '(not there)' : text(d.theirs)}</pre>
                  </section>
                  <section aria-label={`Yours: ${d.part}`}>
                    <h4>Yours</h4>
                    <pre>{d.mine === undefined ? '(not there)' : text(d.mine)}</pre>
                  </section>
                </div>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => onKeepMine(conflict.theirs)}>
            Keep mine (save over theirs)
          </button>
          <button type="button" className="secondary" onClick={() => onTakeTheirs(theirs, conflict.theirs)}>
            Take theirs (yours stays in Undo)
          </button>
        </>
      )}
    </div>
  );
}
