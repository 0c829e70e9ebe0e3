// The designer page (/console/designer): a designer or admin operator picks a bot and edits its
// draft. The page reads the console API with the session cookie; agents are told the designer is
// not theirs (the server refuses them anyway). Styles come from main.css (this file's imports).
import '@xyflow/react/dist/style.css';
import './designer.css';
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { isSignedOut, signedIn, type Me } from '../shared/api-client';
import { accountBots, botLabel, type BotChoice } from '../shared/bot-picker';
import { consoleLinks, signOut } from '../shared/console-nav';
import { Designer } from './app';
import { BotManager } from './bot-manager';
import { ImportBot } from './import-dialog';
import { loadSchema, type BotSchema } from './schema';

type Boot = { kind: 'loading' } | { kind: 'signed-out' } | { kind: 'refused'; me: Me } | { kind: 'ready'; me: Me; bots: BotChoice[]; schema: BotSchema } | { kind: 'failed'; message: string };

function Page() {
  const [boot, setBoot] = useState<Boot>({ kind: 'loading' });
  const [botId, setBotId] = useState(new URLSearchParams(location.search).get('bot') ?? '');
  const [status, setStatus] = useState({ text: '', error: false });
  const say = useCallback((text: string, error = false) => setStatus({ text, error }), []);

  useEffect(() => {
    (async () => {
      const me = await signedIn();
      if (me.Role === 'agent') return setBoot({ kind: 'refused', me });
      const [bots, schema] = await Promise.all([accountBots(), loadSchema()]);
      setBoot({ kind: 'ready', me, bots, schema });
      setBotId((id) => (bots.some((b) => b.BotId === id) ? id : (bots[0]?.BotId ?? '')));
    })().catch((e: unknown) => setBoot(isSignedOut(e) ? { kind: 'signed-out' } : { kind: 'failed', message: (e as Error).message }));
  }, []);

  useEffect(() => {
    if (botId) history.replaceState(null, '', `?bot=${encodeURIComponent(botId)}${location.hash}`);
  }, [botId]);

  return (
    <>
      <header className="top">
        <h1>
          Colloquy <span className="subtitle">designer</span>
        </h1>
        <nav aria-label="Console">
          {consoleLinks('designer', { botId, role: boot.kind === 'refused' || boot.kind === 'ready' ? boot.me.Role : undefined }).map((link) => (
            <a key={link.page} id={`${link.page}-link`} href={link.href} aria-current={link.current ? 'page' : undefined}>
              {link.label}
            </a>
          ))}
          {boot.kind === 'ready' && <span className="hint who">{boot.me.Name}</span>}
        </nav>
        {(boot.kind === 'ready' || boot.kind === 'refused') && (
          <button type="button" id="logout" onClick={() => void signOut()}>
            Sign out
          </button>
        )}
      </header>
      <main id="main">
        {boot.kind === 'ready' && (
          <div className="bot-picker">
            <label htmlFor="bot">Bot</label>
            <select id="bot" value={botId} onChange={(e) => setBotId(e.target.value)}>
              {boot.bots.map((b) => (
                <option key={b.BotId} value={b.BotId}>
                  {botLabel(b)}
                </option>
              ))}
            </select>
            <BotManager
              bots={boot.bots}
              botId={botId}
              say={say}
              onChanged={(bots, select) => {
                setBoot({ ...boot, bots });
                setBotId(select);
              }}
            />
            <ImportBot
              say={say}
              onImported={(bots, select) => {
                setBoot({ ...boot, bots });
                setBotId(select);
              }}
            />
            <p className={`status${status.error ? ' error' : ''}`} role="status" aria-live="polite">
              {status.text}
            </p>
          </div>
        )}
        {boot.kind === 'loading' && <p className="hint">Loading…</p>}
        {boot.kind === 'signed-out' && (
          <p className="notice">
            Sign in on the <a href="/console">console</a> first.
          </p>
        )}
        {boot.kind === 'refused' && <p className="notice">Your role ({boot.me.Role}) does not open the designer. Ask an admin for the designer role.</p>}
        {boot.kind === 'failed' && <p className="notice error">{boot.message}</p>}
        {boot.kind === 'ready' && botId && <Designer key={botId} botId={botId} schema={boot.schema} say={say} />}
        {boot.kind === 'ready' && !botId && (
          <p className="notice">
            This account has no bots yet: make one with <strong>New bot</strong> above, or bring one from Rasa, Dialogflow ES or Typebot with <strong>Import a bot…</strong>
          </p>
        )}
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
