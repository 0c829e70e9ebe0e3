// "Import a bot…" (importers.md, issue 40): a designer brings a Rasa, Dialogflow ES or Typebot
// export into Colloquy without a terminal. The file is read first for a preview of the report
// (what will be made, what is not carried over and why); Import then creates and publishes the bot,
// which the page opens, and the report stays on screen with links to the interactions to finish by
// hand. Reading a large archive takes a while: the dialog says it is working and may be closed
// (the import goes on, and the status line says when the bot is there).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { accountBots, type BotChoice } from '../shared/bot-picker';
import { importBot, previewImport, type ImportedBot, type ImportFormat, type ImportPreview } from './api';
import { ImportReportView } from './import-report';
import { importRefusalInWords, MAX_IMPORT_BYTES, TOO_LARGE } from './import-words';

const FORMATS: Array<[ImportFormat | '', string]> = [
  ['', 'Detect it from the file'],
  ['rasa', 'Rasa'],
  ['dialogflow', 'Dialogflow ES'],
  ['typebot', 'Typebot'],
];
const FORMAT_NAMES: Record<ImportFormat, string> = { rasa: 'Rasa', dialogflow: 'Dialogflow ES', typebot: 'Typebot' };

interface Props {
  /** the account's bots after the import, and the new one to show */
  onImported: (bots: BotChoice[], select: string) => void;
  say: (text: string, error?: boolean) => void;
}

export function ImportBot({ onImported, say }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [imported, setImported] = useState<ImportedBot | null>(null);
  const [working, setWorking] = useState<'' | 'reading' | 'importing'>('');
  const [error, setError] = useState('');
  const title = useRef<HTMLHeadingElement>(null);
  // the Import button goes once the bot is made: the title takes the focus, read out, and Tab goes on to the report's links
  useEffect(() => {
    if (imported) title.current?.focus();
  }, [imported]);

  const [opened, setOpened] = useState(0);
  const open = () => {
    // drawn afresh (an empty file field, no report) before the dialog shows and picks its first field to focus
    flushSync(() => {
      setOpened((n) => n + 1);
      setFile(null);
      setPreview(null);
      setImported(null);
      setError('');
    });
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();
  /** A new file or format: what was previewed no longer holds. */
  const choose = (next: { file?: File | null; format?: ImportFormat | '' }) => {
    if (next.file !== undefined) setFile(next.file);
    if (next.format !== undefined) setFormat(next.format);
    setPreview(null);
    setError(next.file && next.file.size > MAX_IMPORT_BYTES ? TOO_LARGE : '');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (working) return;
    if (!file) return setError('Choose the export file first.');
    if (file.size > MAX_IMPORT_BYTES) return setError(TOO_LARGE);
    setError('');
    setWorking(preview ? 'importing' : 'reading');
    try {
      if (!preview) {
        setPreview(await previewImport(file, format));
        return;
      }
      const made = await importBot(file, format);
      onImported(await accountBots(), made.BotId);
      say(`Imported ${made.Name} from ${FORMAT_NAMES[made.Format]}: it is published and can chat.`);
      setImported(made);
    } catch (e) {
      setError(importRefusalInWords(e));
    } finally {
      setWorking('');
    }
  };

  const stage = imported ? 'done' : preview ? 'previewed' : 'choose';
  return (
    <>
      <button type="button" className="secondary" onClick={open}>
        Import a bot…
      </button>
      <dialog ref={dialog} className="bot-dialog import-dialog" aria-labelledby="import-title">
        <form key={opened} onSubmit={submit} aria-busy={working !== ''}>
          <h2 id="import-title" ref={title} tabIndex={imported ? -1 : undefined}>
            {imported ? `Imported ${imported.Name}` : 'Import a bot'}
          </h2>
          {stage !== 'done' && (
            <>
              <p className="field">
                <label htmlFor="import-format">Made with</label>
                <select id="import-format" value={format} onChange={(e) => choose({ format: e.target.value as ImportFormat | '' })} disabled={working !== ''}>
                  {FORMATS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </p>
              <p className="field">
                <label htmlFor="import-file">Export file</label>
                <input
                  id="import-file"
                  type="file"
                  accept=".json,.yml,.yaml,.zip,.tar.gz,.tgz"
                  onChange={(e) => choose({ file: e.target.files?.[0] ?? null })}
                  disabled={working !== ''}
                  aria-invalid={error !== ''}
                  aria-describedby={error ? 'import-error import-file-help' : 'import-file-help'}
                />
                <span id="import-file-help" className="hint">
                  Typebot: the flow's .json. Rasa: the project as a .zip or .tar.gz, or one YAML file. Dialogflow ES: the agent's .zip. At most 10 MiB.
                </span>
                {error && (
                  <span id="import-error" className="error" role="alert">
                    {error}
                  </span>
                )}
              </p>
            </>
          )}
          {working && (
            <p className="import-working" role="status">
              <progress aria-label={working === 'reading' ? 'Reading the export' : 'Importing'} />
              {working === 'reading' ? 'Reading the export…' : 'Creating the bot…'} A large archive takes a while; you may close this window.
            </p>
          )}
          {preview && !imported && (
            <section className="import-preview" aria-labelledby="import-preview-title">
              <h3 id="import-preview-title">
                Preview: {preview.Bot.name ? `“${String(preview.Bot.name)}”, ` : ''}a {FORMAT_NAMES[preview.Format]} export
              </h3>
              <ImportReportView report={preview.Report} linked={false} />
            </section>
          )}
          {imported && <ImportReportView report={imported.Report} linked onFollow={close} />}
          <div className="dialog-buttons">
            <button type="button" className="secondary" onClick={close}>
              {imported ? 'Close' : 'Cancel'}
            </button>
            {!imported && (
              // aria-disabled, not disabled: a disabled button drops the keyboard's focus to the page
              <button type="submit" aria-disabled={working !== ''}>
                {preview ? 'Import' : 'Preview'}
              </button>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}
