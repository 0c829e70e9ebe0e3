// "Install" (issue 37): how to put the bot on a website, in one place: the one-line embed with a
// copy button, the widget's look (title, colour, greeting, side) previewed live as it is typed,
// the sites allowed to embed it, and a test page. The look is part of the draft's settings, which
// take effect when the draft is saved (settings are not versioned).
import { useCallback, useEffect, useState } from 'react';
import { installOf, type ChannelLink, type Install } from './api';
import ChannelSettings from './channel-settings';
import type { BotFile } from './model';

const APP_NAMES: Record<string, string> = {
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  instagram: 'Instagram',
  slack: 'Slack',
  sms: 'SMS',
  chatwoot: 'Chatwoot',
  teams: 'Microsoft Teams',
};
interface Look {
  enabled?: boolean;
  title?: string;
  color?: string;
  greeting?: string;
  position?: 'right' | 'left';
  allowedOrigins?: string[];
  [field: string]: unknown;
}
interface Props {
  botId: string;
  bot: BotFile;
  edit: (change: (bot: BotFile) => BotFile) => void;
  unsaved: boolean;
}

const DEFAULT_COLOR = '#1d4ed8';
const webOf = (bot: BotFile): Look => (bot.settings as { channels?: { web?: Look } } | undefined)?.channels?.web ?? {};

export default function InstallPanel({ botId, bot, edit, unsaved }: Props) {
  const [install, setInstall] = useState<Install | null>(null);
  const [copied, setCopied] = useState('');
  const [error, setError] = useState('');
  const web = webOf(bot);
  const loadInstall = useCallback(() => installOf(botId).then(setInstall, (e: Error) => setError(e.message)), [botId]);
  useEffect(() => {
    void loadInstall();
  }, [loadInstall]);

  const setWeb = (field: keyof Look, value: unknown) =>
    edit((b) => {
      const settings = (b.settings ?? {}) as { channels?: Record<string, unknown> };
      const next: Look = { ...webOf(b), [field]: value };
      if (value === '' || value === undefined) delete next[field];
      return { ...b, settings: { ...settings, channels: { ...(settings.channels ?? {}), web: next } } };
    });
  const copy = async () => {
    if (!install) return;
    try {
      await navigator.clipboard.writeText(install.Snippet);
      setCopied('Copied. Paste it before </body> on every page that should show the chat.');
    } catch {
      setCopied('Select the line above and copy it (the browser did not allow copying).');
    }
  };
  const color = /^#[0-9a-fA-F]{6}$/.test(web.color ?? '') ? web.color! : DEFAULT_COLOR;

  return (
    <section className="install" aria-labelledby="install-title">
      <h2 id="install-title">Put the bot on a website</h2>
      {web.enabled === false && <p className="problem">The web chat is switched off for this bot: turn on “Shown on websites” below.</p>}
      <label htmlFor="embed">Add this line to your site's pages</label>
      <textarea id="embed" readOnly rows={4} value={install?.Snippet ?? 'Loading…'} onFocus={(e) => e.currentTarget.select()} />
      <p className="row">
        <button type="button" className="small" onClick={() => void copy()} disabled={!install}>
          Copy
        </button>
        {install && (
          <a href={install.TestPage} target="_blank" rel="noopener">
            Try it on a test page (opens in a new tab)
          </a>
        )}
      </p>
      <p className="hint" role="status">
        {copied}
      </p>

      <h3>How it looks</h3>
      <div className="look-preview" aria-label="Preview of the chat window" role="img" data-side={web.position ?? 'right'}>
        <div className="mock-window">
          <div className="mock-header" style={{ background: color }}>
            {web.title || bot.name}
          </div>
          {web.greeting && <p className="mock-greeting">{web.greeting}</p>}
          <div className="mock-bubble user" style={{ background: color }}>
            Hello!
          </div>
        </div>
        <span className="mock-launcher" style={{ background: color }} />
      </div>
      <p className="field">
        <label htmlFor="look-title">Title</label>
        <input id="look-title" maxLength={60} value={web.title ?? ''} placeholder={bot.name} onChange={(e) => setWeb('title', e.target.value)} />
      </p>
      <p className="field">
        <label htmlFor="look-color">Colour</label>
        <span className="row">
          <input id="look-color" type="color" value={color} onChange={(e) => setWeb('color', e.target.value)} />
          <code>{color}</code>
        </span>
      </p>
      <p className="field">
        <label htmlFor="look-greeting">Greeting above the conversation</label>
        <input id="look-greeting" maxLength={300} value={web.greeting ?? ''} placeholder="e.g. We usually answer within minutes." onChange={(e) => setWeb('greeting', e.target.value)} />
      </p>
      <fieldset className="field">
        <legend>Corner of the page</legend>
        {(['right', 'left'] as const).map((side) => (
          <label key={side}>
            <input type="radio" name="look-side" checked={(web.position ?? 'right') === side} onChange={() => setWeb('position', side)} /> Bottom {side}
          </label>
        ))}
      </fieldset>
      <p className="field">
        <label htmlFor="look-origins">Sites allowed to show it, one per line (* for any)</label>
        <textarea
          id="look-origins"
          rows={3}
          value={(web.allowedOrigins ?? []).join('\n')}
          placeholder="https://shop.example.com"
          onChange={(e) =>
            setWeb(
              'allowedOrigins',
              e.target.value
                .split('\n')
                .map((o) => o.trim())
                .filter((o) => o !== ''),
            )
          }
        />
      </p>
      <label className="check">
        <input type="checkbox" checked={web.enabled !== false} onChange={(e) => setWeb('enabled', e.target.checked)} /> Shown on websites
      </label>
      <p className="hint">{unsaved ? 'Save to apply these to the chat on your site.' : 'The chat on your site looks like this.'}</p>
      {install && <MessagingLinks channels={install.Channels} />}
      <ChannelSettings botId={botId} onChange={() => void loadInstall()} />
      {error && (
        <p className="problem" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** Where customers find the bot on the messaging apps it is connected to: a link to share when the app gives one. */
function MessagingLinks({ channels }: { channels: ChannelLink[] }) {
  const connected = channels.filter((c) => c.Connected);
  return (
    <>
      <h3>On messaging apps</h3>
      {connected.length === 0 && <p className="hint">Not on any messaging app yet: connect one below.</p>}
      <ul className="channel-links">
        {connected.map((c) => (
          <li key={c.Channel}>
            <strong>{APP_NAMES[c.Channel] ?? c.Channel}</strong>{' '}
            {c.Link ? (
              <>
                connected: customers open{' '}
                <a href={c.Link} target="_blank" rel="noopener">
                  {c.Link}
                </a>
              </>
            ) : (
              <span>
                connected{c.Account ? ` (${c.Account})` : ''}: customers reach the bot on {APP_NAMES[c.Channel] ?? c.Channel}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
