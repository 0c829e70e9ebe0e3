// Published versions (time, who), the diff of any two or of one and the draft, and rollback.
// Loaded on first show.
import { useEffect, useState } from 'react';
import { botPath, call, type Change, type Version } from './api';

interface Props {
  botId: string;
  /** changes when something was published or rolled back, so the list is read again */
  generation: number;
  onRollback: (version: number) => Promise<void>;
}

const who = (v: Version) => (v.PublishedBy?.Kind === 'operator' ? v.PublishedBy.Name ?? v.PublishedBy.Email ?? 'an operator' : v.PublishedBy?.Kind === 'account' ? 'the API' : 'someone (not recorded)');
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const brief = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? '' : text.length > 160 ? `${text.slice(0, 159)}…` : text;
};

export default function Versions({ botId, generation, onRollback }: Props) {
  const [versions, setVersions] = useState<Version[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('draft');
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    call<{ Result: Version[] }>('GET', botPath(botId, '/versions')).then(({ Result }) => {
      setVersions(Result);
      setFrom(Result[0] ? String(Result[0].Version) : '');
      setChanges(null);
    }, (e: Error) => setError(e.message));
  }, [botId, generation]);

  const compare = async () => {
    setError('');
    try {
      setChanges((await call<{ Changes: Change[] }>('GET', botPath(botId, `/diff?from=${from}&to=${to}`))).Changes);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="versions" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {versions.length === 0 ? <p className="hint">Nothing published yet.</p> : (
        <ol className="version-list">
          {versions.map((v, n) => (
            <li key={v.Version}>
              <span className="version-no">v{v.Version}</span> <span>{when(v.PublishedAt)}</span> <span className="hint">by {who(v)}</span>
              {n === 0 ? <span className="mark">live</span> : <button type="button" className="secondary small" onClick={() => onRollback(v.Version)}>Roll back to v{v.Version}</button>}
            </li>
          ))}
        </ol>
      )}
      {versions.length > 0 && (
        <form className="compare" onSubmit={(e) => { e.preventDefault(); void compare(); }}>
          <label htmlFor="diff-from">From</label>
          <select id="diff-from" value={from} onChange={(e) => setFrom(e.target.value)}>
            {versions.map((v) => <option key={v.Version} value={v.Version}>v{v.Version}</option>)}
          </select>
          <label htmlFor="diff-to">to</label>
          <select id="diff-to" value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="draft">the draft</option>
            {versions.map((v) => <option key={v.Version} value={v.Version}>v{v.Version}</option>)}
          </select>
          <button type="submit" className="small">Compare</button>
        </form>
      )}
      {changes && (changes.length === 0 ? <p className="hint">No differences.</p> : (
        <ul className="diff" aria-label="Changes">
          {changes.map((c, n) => (
            <li key={n} className={`change ${c.Kind}`}>
              <span className="kind">{c.Kind}</span> <code>{c.Path}</code>
              {c.Before !== undefined && <pre className="before">− {brief(c.Before)}</pre>}
              {c.After !== undefined && <pre className="after">+ {brief(c.After)}</pre>}
            </li>
          ))}
        </ul>
      ))}
      {error && <p className="problem" role="alert">{error}</p>}
    </section>
  );
}
