// New bot, duplicate, rename, delete (issue 37 "New bot"): a support lead makes a bot from a
// template without a terminal. One native <dialog> (focus kept inside, Escape closes it) whose form
// depends on what was asked; the server answers with the bot to select.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/api-client';
import { accountBots, type BotChoice } from '../shared/bot-picker';
import { botTemplates, deleteBot, duplicateBot, newBot, renameBot, type Template } from './api';

type Mode = 'new' | 'duplicate' | 'rename' | 'delete';
interface Props {
  bots: BotChoice[];
  botId: string;
  /** the account's bots after a change, and the one to show */
  onChanged: (bots: BotChoice[], select: string) => void;
  say: (text: string, error?: boolean) => void;
}

const TITLES: Record<Mode, string> = { new: 'New bot', duplicate: 'Duplicate bot', rename: 'Rename bot', delete: 'Delete bot' };

export function BotManager({ bots, botId, onChanged, say }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [mode, setMode] = useState<Mode | null>(null);
  const [name, setName] = useState('');
  const [templates, setTemplates] = useState<Template[]>([]);
  const [template, setTemplate] = useState('support-faq');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const current = bots.find((b) => b.BotId === botId);

  useEffect(() => {
    if (mode === 'new' && templates.length === 0) {
      botTemplates().then(setTemplates, (e: Error) => setError(e.message));
    }
  }, [mode, templates.length]);

  const open = (next: Mode) => {
    setMode(next);
    setError('');
    setName(next === 'new' ? '' : next === 'duplicate' ? `Copy of ${current?.Name ?? ''}`.slice(0, 100) : (current?.Name ?? ''));
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!mode) return;
    setBusy(true);
    setError('');
    try {
      let select = botId;
      if (mode === 'new') select = (await newBot(name, template)).BotId;
      if (mode === 'duplicate') select = (await duplicateBot(botId, name)).BotId;
      if (mode === 'rename') await renameBot(botId, name);
      if (mode === 'delete') await deleteBot(botId);
      const bots = await accountBots();
      if (mode === 'delete') select = bots[0]?.BotId ?? '';
      close();
      onChanged(bots, select);
      say(mode === 'delete' ? `Deleted ${current?.Name ?? 'the bot'}.` : mode === 'rename' ? `Renamed to ${name.trim()}.` : `Made ${name.trim()}: it is published and can chat.`);
    } catch (e) {
      setError(e instanceof ApiError && e.code === 'INVALID_REQUEST' ? 'Give the bot a name of at most 100 characters.' : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" onClick={() => open('new')}>
        New bot
      </button>
      {current && (
        <span className="bot-actions">
          <button type="button" className="secondary small" aria-label="Duplicate bot" onClick={() => open('duplicate')}>
            Duplicate
          </button>
          <button type="button" className="secondary small" aria-label="Rename bot" onClick={() => open('rename')}>
            Rename
          </button>
          <button type="button" className="danger small" aria-label="Delete bot" onClick={() => open('delete')}>
            Delete
          </button>
        </span>
      )}
      <dialog ref={dialog} className="bot-dialog" aria-labelledby="bot-dialog-title" onClose={() => setMode(null)}>
        {mode && (
          <form onSubmit={submit}>
            <h2 id="bot-dialog-title">{TITLES[mode]}</h2>
            {mode === 'delete' ? (
              <p>
                Delete <strong>{current?.Name}</strong>? Its conversations, knowledge sources and channels go with it. This cannot be undone.
              </p>
            ) : (
              <p className="field">
                <label htmlFor="bot-name">Name</label>
                <input
                  id="bot-name"
                  required
                  maxLength={100}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  autoFocus
                  aria-invalid={error !== ''}
                  aria-describedby={error ? 'bot-dialog-error' : undefined}
                />
              </p>
            )}
            {mode === 'new' && (
              <fieldset className="templates">
                <legend>Start from</legend>
                {templates.map((t) => (
                  <label key={t.TemplateId} className="template">
                    <input type="radio" name="template" value={t.TemplateId} checked={template === t.TemplateId} onChange={() => setTemplate(t.TemplateId)} />
                    <span>
                      <strong>{t.TemplateId === 'empty' ? 'Empty bot' : t.Name}</strong>
                      <span className="hint">{t.Description}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
            {error && (
              <p id="bot-dialog-error" className="error" role="alert">
                {error}
              </p>
            )}
            <div className="dialog-buttons">
              <button type="button" className="secondary" onClick={close}>
                Cancel
              </button>
              <button type="submit" className={mode === 'delete' ? 'danger' : undefined} disabled={busy}>
                {mode === 'delete' ? 'Delete bot' : mode === 'new' ? 'Create bot' : TITLES[mode].split(' ')[0]}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}
