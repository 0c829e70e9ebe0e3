// What an import makes and leaves out (importers.md "Report"), shown before the import (the
// preview) and after it: the counts of what is created, then every element of the export that was
// skipped or changed, with its place in the export and why. After the import, the interactions
// those elements belonged to are links that open them in the designer, to be finished by hand.
import type { ImportEntry, ImportReport } from './api';
import { stepLink } from './step-link';

/** The importers make one behaviour (docs/importers.md). */
const BEHAVIOUR = 'Main';

const COUNTED: Array<[keyof ImportReport['Converted'], string]> = [
  ['Interactions', 'interaction'],
  ['Actions', 'action'],
  ['Intents', 'intent'],
  ['Entities', 'entity'],
  ['Variables', 'variable'],
];
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word === 'entity' ? 'entities' : `${word}s`}`;

/** The interactions the entries belong to, each once, in the order they come. */
export const interactionsToCheck = (report: ImportReport) => [...new Set([...report.Skipped, ...report.Changed].flatMap((e) => (e.Interaction ? [e.Interaction] : [])))];

interface Props {
  report: ImportReport;
  /** after the import: interactions are links (before it, they do not exist yet) */
  linked: boolean;
  /** a link was followed (the dialog closes) */
  onFollow?: () => void;
}

export function ImportReportView({ report, linked, onFollow }: Props) {
  const interaction = (name: string) =>
    linked ? (
      <a href={stepLink(BEHAVIOUR, name)} onClick={onFollow}>
        {name}
      </a>
    ) : (
      <strong>{name}</strong>
    );
  const entries = (title: string, list: ImportEntry[], id: string) =>
    list.length > 0 && (
      <section aria-labelledby={id}>
        <h3 id={id}>
          {title} ({list.length})
        </h3>
        <ul className="import-entries">
          {/* the report's order is fixed, and two entries may share a path: the index is the key */}
          {list.map((e, n) => (
            <li key={n}>
              <span className="import-what">{e.What}</span>: {e.Why}
              {e.Interaction && <> (interaction {interaction(e.Interaction)})</>}
              <code className="import-path">{e.Path}</code>
            </li>
          ))}
        </ul>
      </section>
    );
  const toCheck = interactionsToCheck(report);
  const c = report.Converted;
  return (
    <div className="import-report">
      <p>
        {linked ? 'Created' : 'Will create'}:{' '}
        {COUNTED.filter(([key]) => c[key] > 0 || key === 'Interactions')
          .map(([key, word]) => plural(c[key], word))
          .join(', ')}
        .
      </p>
      {toCheck.length > 0 && (
        <section aria-labelledby="import-check-title">
          <h3 id="import-check-title">Interactions to finish by hand</h3>
          <ul className="import-check">
            {toCheck.map((name) => (
              <li key={name}>{interaction(name)}</li>
            ))}
          </ul>
        </section>
      )}
      {entries('Not carried over', report.Skipped, 'import-skipped-title')}
      {entries('Changed', report.Changed, 'import-changed-title')}
      {report.Skipped.length === 0 && report.Changed.length === 0 && <p>Everything in the export was carried over.</p>}
    </div>
  );
}
