// Try it: a chat with the saved draft (POST .../preview/chat), apart from real conversations.
// Each bot reply names the interaction it came from (Source); the page highlights that node.
import { useState } from 'react';
import { previewChat, type PreviewPart } from './api';
import { explainMatch } from './matched';

interface Line {
  who: 'user' | 'bot' | 'why';
  text: string;
  from?: string;
  buttons?: { text: string; command: string }[];
}
interface Props {
  botId: string;
  /** saves unsaved edits first: the preview runs the saved draft */
  beforeSend: () => Promise<boolean>;
  onHeard: (source: { Behaviour: string; Interaction: string }) => void;
}

function linesOf(parts: PreviewPart[]): Line[] {
  const lines: Line[] = [];
  for (const part of parts) {
    const buttons = (part.Parts ?? []).filter((p) => p.Type === 1 && p.Command).map((p) => ({ text: p.Text ?? '', command: p.Command! }));
    if (part.Type === 1 && part.Command) {
      const last = lines[lines.length - 1];
      if (last?.who === 'bot') (last.buttons ??= []).push({ text: part.Text ?? '', command: part.Command });
      continue;
    }
    if (part.Text || buttons.length) lines.push({ who: 'bot', text: part.Text ?? '', from: part.Source ? `${part.Source.Behaviour} › ${part.Source.Interaction}` : undefined, buttons });
  }
  return lines;
}

export function Preview({ botId, beforeSend, onHeard }: Props) {
  const [userId, setUserId] = useState<string | undefined>();
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState('');

  const send = async (body: Record<string, unknown>, shown?: string) => {
    setError('');
    if (!(await beforeSend())) return setError('Save the draft without problems to try it.');
    try {
      const reply = await previewChat(botId, { ...(userId && !('Command' in body && body.Command === 'RESET') ? { UserId: userId } : {}), ...body });
      setUserId(reply.UserId);
      setLines((old) => [
        ...(body.Command === 'RESET' ? [] : old),
        ...(shown ? [{ who: 'user' as const, text: shown }] : []),
        ...linesOf(reply.Parts),
        ...(reply.Matched ? [{ who: 'why' as const, text: explainMatch(reply.Matched) }] : []),
      ]);
      const last = [...reply.Parts].reverse().find((p) => p.Source);
      if (last?.Source) onHeard(last.Source);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section className="preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Try the draft</h2>
      <p className="hint">Runs the saved draft, not the live version. Preview conversations are kept apart from real ones.</p>
      <button type="button" className="secondary small" onClick={() => send({ Command: 'RESET' })}>
        {userId ? 'Start over' : 'Start a preview conversation'}
      </button>
      <ol className="chat" aria-live="polite" aria-label="Preview conversation">
        {lines.map((line, n) =>
          line.who === 'why' ? (
            <li key={n} className="why">
              {line.text}
            </li>
          ) : (
            <li key={n} className={`bubble ${line.who}`}>
              <span className="said" dir="auto">
                {line.text}
              </span>
              {line.from && <span className="from">from {line.from}</span>}
              {line.buttons && line.buttons.length > 0 && (
                <span className="chat-buttons">
                  {line.buttons.map((b) => (
                    <button key={b.command} type="button" className="secondary small" onClick={() => send({ Command: b.command }, b.text)}>
                      {b.text}
                    </button>
                  ))}
                </span>
              )}
            </li>
          ),
        )}
      </ol>
      <form
        className="say"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) {
            void send({ Text: text }, text);
            setText('');
          }
        }}
      >
        <label htmlFor="preview-text" className="sr">
          Message to the draft
        </label>
        <input id="preview-text" value={text} onChange={(e) => setText(e.target.value)} placeholder="Say something…" autoComplete="off" />
        <button type="submit" className="small">
          Send
        </button>
      </form>
      {error && (
        <p className="problem" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
