// "Connect messaging apps" in the Install tab (issue 41): every messaging channel the server speaks,
// each a disclosure holding its form, built from the form the platform declares (labels, help,
// secrets), so a platform added on the server appears here without this page knowing it.
import { useCallback, useEffect, useState } from 'react';
import { ChannelCard } from './channel-card';
import { channelSettings, type ChannelSetting } from './channel-api';
import './channel-settings.css';

/** A short state for the summary line, so a closed list still says what is connected and what is failing. */
function stateOf(c: ChannelSetting): string {
  if (!c.Enabled) return 'not connected';
  const who = c.Account ? ` as ${c.Account}` : '';
  return c.LastError ? `connected${who}, last delivery failed` : `connected${who}`;
}

export default function ChannelSettings({ botId, onChange }: { botId: string; onChange: () => void }) {
  const [channels, setChannels] = useState<ChannelSetting[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(
    () =>
      channelSettings(botId).then(
        (list) => {
          setChannels(list);
          setError('');
        },
        (e: Error) => setError(e.message),
      ),
    [botId],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const changed = async () => {
    await load();
    onChange();
  };

  return (
    <section className="channel-settings" aria-labelledby="channel-settings-title">
      <h3 id="channel-settings-title">Connect messaging apps</h3>
      <p className="hint">Open an app to connect the bot with the details the app gives you. Saved secrets are never shown again.</p>
      {channels === null && !error && <p className="hint">Loading…</p>}
      {error && (
        <p className="problem" role="alert">
          {error}
        </p>
      )}
      {channels?.map((c) => (
        <details key={c.Channel} className="channel" data-channel={c.Channel}>
          <summary>
            <strong>{c.Title}</strong> <span className={c.LastError && c.Enabled ? 'state failing' : c.Enabled ? 'state on' : 'state'}>{stateOf(c)}</span>
          </summary>
          <ChannelCard botId={botId} channel={c} onChange={changed} />
        </details>
      ))}
    </section>
  );
}
