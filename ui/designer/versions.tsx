// Published versions (time, who), numbered 1, 2, 3… as a person counts publishes; the changes of
// any two, or of one and the draft, in the designer's words (change-words.ts); rollback asks first.
// Loaded on first show.
import { useEffect, useState } from 'react';
import { changesBetween, publishedVersions, type Version } from './api';
import { changeWords, type Change } from './change-words';

interface Props {
  botId: string;
  /** changes when something was published or rolled back, so the list is read again */
  generation: number;
  onRollback: (version: number) => Promise<void>;
}

const who = (v: Version) =>
  v.PublishedBy?.Kind === 'operator' ? (v.PublishedBy.Name ?? v.PublishedBy.Email ?? 'an operator') : v.PublishedBy?.Kind === 'account' ? 'the API' : 'someone (not recorded)';
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const brief = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? '' : text.length > 160 ? `${text.slice(0, 159)}…` : text;
};
const KIND_WORDS: Record<Change['Kind'], string> = { added: 'added', removed: 'removed', changed: 'changed' };

export default function Versions({ botId, generation, onRollback }: Props) {
  const [versions, setVersions] = useState<Version[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('draft');
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const [error, setError] = useState('');
  const number = (n: number) => versions.length - n;
  const label = (apiVersion: string) => {
    const at = versions.findIndex((v) => String(v.Version) === apiVersion);
    return at < 0 ? 'the draft' : `version ${versions.length - at}`;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` changes after a publish, when the list must be read again
  useEffect(() => {
    publishedVersions(botId).then(
      (result) => {
        setVersions(result);
        setFrom(result[0] ? String(result[0].Version) : '');
        setChanges(null);
        setAsking(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [botId, generation]);

  const compare = async () => {
    setError('');
    try {
      setChanges(await changesBetween(botId, from, to));
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="versions" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {versions.length === 0 ? (
        <p className="hint">Nothing published yet.</p>
      ) : (
        <ol className="version-list">
          {versions.map((v, n) => (
            <li key={v.Version}>
              <span className="version-no">Version {number(n)}</span> <span>{when(v.PublishedAt)}</span> <span className="hint">by {who(v)}</span>
              {n === 0 ? (
                <span className="mark">live</span>
              ) : asking === v.Version ? (
                <span className="ask" role="group" aria-label={`Roll back to version ${number(n)}?`}>
                  <span>Make version {number(n)} live again?</span>{' '}
                  <button
                    type="button"
                    className="small"
                    onClick={() => {
                      setAsking(null);
                      void onRollback(v.Version);
                    }}
                  >
                    Roll back
                  </button>{' '}
                  <button type="button" className="secondary small" onClick={() => setAsking(null)}>
                    Cancel
                  </button>
                </span>
              ) : (
                <button type="button" className="secondary small" onClick={() => setAsking(v.Version)}>
                  Roll back to version {number(n)}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {versions.length > 0 && (
        <form
          className="compare"
          onSubmit={(e) => {
            e.preventDefault();
            void compare();
          }}
        >
          <label htmlFor="diff-from">From</label>
          <select id="diff-from" value={from} onChange={(e) => setFrom(e.target.value)}>
            {versions.map((v, n) => (
              <option key={v.Version} value={v.Version}>
                version {number(n)}
              </option>
            ))}
          </select>
          <label htmlFor="diff-to">to</label>
          <select id="diff-to" value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="draft">the draft</option>
            {versions.map((v, n) => (
              <option key={v.Version} value={v.Version}>
                version {number(n)}
              </option>
            ))}
          </select>
          <button type="submit" className="small">
            Compare
          </button>
        </form>
      )}
      {changes &&
        (changes.length === 0 ? (
          <p className="hint">No differences.</p>
        ) : (
          <ul className="diff" aria-label={`Changes from ${label(from)} to ${label(to)}`}>
            {changes.map((c, n) => (
              <li key={n} className={`change ${c.Kind}`}>
                <span className="kind">{KIND_WORDS[c.Kind]}</span> <span className="words">{changeWords(c)}</span>
                <details>
                  <summary>As in the bot file</summary>
                  <code>{c.Path}</code>
                  {c.Before !== undefined && <pre className="before">− {brief(c.Before)}</pre>}
                  {c.After !== undefined && <pre className="after">+ {brief(c.After)}</pre>}
                </details>
              </li>
            ))}
          </ul>
        ))}
      {error && (
        <p className="problem" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
