// The whole draft as JSON in CodeMirror 6, validated and completed from the bot schema, a field's
// description shown on hover (codemirror-json-schema). Loaded on first show: CodeMirror is its own
// chunk. An edit here is an edit of the same draft as the forms (kept for page undo), applied once
// the text is JSON again; the editor keeps its own undo for keystrokes. A change made elsewhere
// (forms, page undo) replaces the text, unless the text already says the same.
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView, basicSetup } from 'codemirror';
import { hoverTooltip } from '@codemirror/view';
import { handleRefresh, jsonCompletion, jsonSchemaHover, jsonSchemaLinter, stateExtensions } from 'codemirror-json-schema';
import { useEffect, useRef, useState } from 'react';
import { mountEditor, replaceText } from './codemirror-host';
import type { BotFile } from './model';
import type { Schema } from './schema';

interface Props {
  bot: BotFile;
  schema: Schema;
  onChange: (bot: BotFile) => void;
}

const show = (bot: BotFile) => JSON.stringify(bot, null, 2);
const APPLY_AFTER_MS = 400;

/** The text as a bot file, or why it is not one. */
function read(text: string): { bot: BotFile } | { error: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Array.isArray((value as BotFile).behaviours)) return { error: 'A bot file is an object with a list of behaviours.' };
    return { bot: value as BotFile };
  } catch (e) {
    return { error: `Not JSON yet: ${(e as Error).message}` };
  }
}

export default function Source({ bot, schema, onChange }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const applied = useRef(show(bot));
  const latest = useRef(onChange);
  latest.current = onChange;
  const [error, setError] = useState('');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const editor = mountEditor(host.current!, applied.current, [
      basicSetup,
      json(),
      linter(jsonParseLinter()),
      linter(jsonSchemaLinter(), { needsRefresh: handleRefresh }),
      json().language.data.of({ autocomplete: jsonCompletion() }),
      hoverTooltip(jsonSchemaHover()),
      stateExtensions(schema as never),
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-label': 'The draft as JSON', 'aria-describedby': 'source-hint' }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const text = update.state.doc.toString();
          const outcome = read(text);
          if ('error' in outcome) return setError(outcome.error);
          setError('');
          if (JSON.stringify(outcome.bot) === JSON.stringify(JSON.parse(applied.current))) return;
          applied.current = show(outcome.bot);
          latest.current(outcome.bot);
        }, APPLY_AFTER_MS);
      }),
    ]);
    view.current = editor;
    return () => {
      clearTimeout(timer);
      editor.destroy();
    };
  }, [schema]);

  // Forms, page undo or a reload changed the draft: show it, unless the text already means it.
  useEffect(() => {
    const editor = view.current;
    const text = show(bot);
    if (!editor || text === applied.current) return;
    const now = read(editor.state.doc.toString());
    applied.current = text;
    if ('bot' in now && JSON.stringify(now.bot) === JSON.stringify(bot)) return;
    replaceText(editor, text);
  }, [bot]);

  return (
    <div className="source" role="region" aria-label="Source of the draft">
      <p id="source-hint" className="hint">
        The whole draft as JSON, checked against the bot schema as you type (Ctrl+Space completes). It becomes the draft once it is JSON again.
      </p>
      <div className="source-editor" ref={host} />
      <p className="problem" role="status">
        {error}
      </p>
    </div>
  );
}
