// The connect form of one messaging channel, built from the fields its platform declares: labels
// with their help, secrets in password fields that start empty (a saved secret is only said to be
// set), and the server's refusal shown next to the form in plain words. What the form sent is
// cleared once connected, so no secret stays in the page.
import { type FormEvent, useId, useState } from 'react';
import { connectChannel, type ChannelSetting, type Connected, type FormField } from './channel-api';
import { plainError } from './channel-words';
import { CopyField } from './copy-field';

const WHOLE_NUMBERS = /^\d{1,15}$/;

/** The PUT body: filled fields only; a `numbers` field as a list (null when one is not a whole number). */
function bodyOf(fields: FormField[], values: Record<string, string>): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const value = (values[f.Name] ?? '').trim();
    if (value === '') continue;
    if (f.Kind === 'numbers') {
      const items = value.split(',').map((v) => v.trim());
      if (!items.every((v) => WHOLE_NUMBERS.test(v))) return null;
      body[f.Name] = items.map(Number);
    } else body[f.Name] = value;
  }
  return body;
}

export function ChannelForm({ botId, channel, onConnected }: { botId: string; channel: ChannelSetting; onConnected: () => Promise<void> }) {
  const id = useId();
  const fields = channel.Form?.Fields ?? [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [connected, setConnected] = useState<Connected | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(fields, values);
    if (!body) {
      setError({ text: `“${fields.find((f) => f.Kind === 'numbers')?.Label}” takes whole numbers separated by commas.` });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await connectChannel(botId, channel.Channel, body);
      setValues({});
      setConnected(reply);
      await onConnected();
    } catch (e) {
      setConnected(null);
      setError({ text: plainError(e, channel), field: (e as { body?: { Field?: string } }).body?.Field });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="channel-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} aria-describedby={error ? `${id}-error` : undefined}>
      <h4 id={`${id}-title`}>{channel.Enabled ? `Change the ${channel.Title} details` : `Connect ${channel.Title}`}</h4>
      {channel.Enabled && <p className="hint">Enter every detail again to change them: saved secrets are kept hidden.</p>}
      {fields.map((f) => {
        const fieldId = `${id}-${f.Name}`;
        return (
          <p className="field" key={f.Name}>
            <label htmlFor={fieldId}>
              {f.Label}
              {f.Optional ? ' (optional)' : ''}
              {f.Secret && channel.Enabled ? <span className="set-state"> set</span> : null}
            </label>
            <input
              id={fieldId}
              name={f.Name}
              type={f.Secret ? 'password' : f.Kind === 'url' ? 'url' : 'text'}
              inputMode={f.Kind === 'numbers' ? 'numeric' : undefined}
              autoComplete={f.Secret ? 'new-password' : 'off'}
              spellCheck={false}
              required={!f.Optional}
              maxLength={f.MaxLength}
              value={values[f.Name] ?? ''}
              aria-describedby={`${fieldId}-help`}
              aria-invalid={error?.field === f.Name ? true : undefined}
              onChange={(e) => setValues({ ...values, [f.Name]: e.target.value })}
            />
            <span id={`${fieldId}-help`} className="hint">
              {f.Help}
            </span>
          </p>
        );
      })}
      {error && (
        <p id={`${id}-error`} className="problem" role="alert">
          {error.text}
        </p>
      )}
      <p className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Connecting…' : channel.Enabled ? 'Save and reconnect' : `Connect ${channel.Title}`}
        </button>
      </p>
      <p className="hint" role="status">
        {connected ? `${channel.Title} is connected${connected.Account ? ` as ${connected.Account}` : ''}.` : ''}
      </p>
      {connected?.VerifyToken && <CopyField label="Verify token" help="Shown only now: paste it into the Meta app's webhook settings with the webhook URL." value={connected.VerifyToken} />}
    </form>
  );
}
