// A read-only value with a copy button, for what a person pastes into another app's settings.
import { useId, useState } from 'react';

/** A value to paste somewhere else (a webhook URL, a verify token): read-only, selected on focus, with a copy button. */
export function CopyField({ label, help, value }: { label: string; help: string; value: string }) {
  const id = useId();
  const [said, setSaid] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setSaid(`${label} copied.`),
      () => setSaid('Select it and copy it (the browser did not allow copying).'),
    );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span className="row">
        <input id={id} readOnly value={value} aria-describedby={`${id}-help`} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="small" onClick={() => void copy()} aria-label={`Copy the ${label.toLowerCase()}`}>
          Copy
        </button>
      </span>
      <span id={`${id}-help`} className="hint">
        {help}
      </span>
      <span className="hint" role="status">
        {said}
      </span>
    </div>
  );
}
