// One messaging channel in the Install tab: when connected, the URLs to paste into the app's
// settings (read-only, with copy buttons), the last message received and the last delivery
// problem with its time, and Disconnect behind a confirmation; then the connect form.
import { useRef, useState } from 'react';
import { ChannelForm } from './channel-form';
import { CopyField } from './copy-field';
import { disconnectChannel, type ChannelSetting } from './channel-api';
import { plainError } from './channel-words';

/** LastError starts with the ISO time it happened (channels/messaging/outbound.ts): split it off to say it plainly. */
function splitLastError(lastError: string): { at: string | null; text: string } {
  const space = lastError.indexOf(' ');
  const at = space > 0 ? Date.parse(lastError.slice(0, space)) : Number.NaN;
  return Number.isNaN(at) ? { at: null, text: lastError } : { at: new Date(at).toLocaleString(), text: lastError.slice(space + 1) };
}

export function ChannelCard({ botId, channel, onChange }: { botId: string; channel: ChannelSetting; onChange: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const lastError = channel.LastError ? splitLastError(channel.LastError) : null;

  const disconnect = async () => {
    setBusy(true);
    setError('');
    try {
      await disconnectChannel(botId, channel.Channel);
      setConfirming(false);
      setSaid(`${channel.Title} is disconnected: its secrets are erased and the webhook URL no longer answers.`);
      await onChange();
    } catch (e) {
      setError(plainError(e, channel));
    } finally {
      setBusy(false);
    }
  };
  const askToConfirm = () => {
    setConfirming(true);
    // the question is read out first; Tab reaches its two answers
    requestAnimationFrame(() => confirmRef.current?.focus());
  };

  return (
    <div className="channel-body">
      {channel.Form && <p className="hint">{channel.Form.Intro}</p>}
      {channel.Enabled && channel.WebhookUrl && (
        <>
          <CopyField label="Webhook URL" help={`Paste it into the ${channel.Title} settings: messages reach the bot there.`} value={channel.WebhookUrl} />
          {channel.MoreUrls.map((u) => (
            <CopyField key={u.Label} label={u.Label} help={u.Help} value={u.Url} />
          ))}
          <p className="hint">{channel.LastInboundAt ? `Last message received: ${new Date(channel.LastInboundAt).toLocaleString()}.` : 'No message received yet.'}</p>
          {lastError && (
            <p className="problem last-error">
              Last delivery problem{lastError.at ? `, ${lastError.at}` : ''}: {lastError.text}
            </p>
          )}
          {!confirming ? (
            <button type="button" className="danger" onClick={askToConfirm}>
              Disconnect {channel.Title}
            </button>
          ) : (
            <div className="confirm" role="group" aria-label={`Disconnect ${channel.Title}?`}>
              <p ref={confirmRef} tabIndex={-1}>
                Disconnect {channel.Title}? Its secrets are erased and customers writing there get no answer until you connect it again.
              </p>
              <span className="row">
                <button type="button" className="danger" disabled={busy} onClick={() => void disconnect()}>
                  Yes, disconnect
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Keep it connected
                </button>
              </span>
            </div>
          )}
        </>
      )}
      {error && (
        <p className="problem" role="alert">
          {error}
        </p>
      )}
      <p className="hint" role="status">
        {said}
      </p>
      {channel.Form ? (
        <ChannelForm botId={botId} channel={channel} onConnected={onChange} />
      ) : (
        <p className="hint">This app has no form yet: connect it with the API (PUT /bots/&#123;APIKey&#125;/channels/{channel.Channel}).</p>
      )}
    </div>
  );
}
