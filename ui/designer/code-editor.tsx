// A small JSON editor for one form field (a tool's JSON Schema): CodeMirror with JSON highlighting
// and its syntax linter, in its own chunk like the source view (loaded when a field needs it). The
// field owns the text and its checking (schema-field.tsx); this only shows and edits it.
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter } from '@codemirror/lint';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { mountEditor, replaceText } from './codemirror-host';

interface Props {
  text: string;
  onText: (text: string) => void;
  /** the field's name: the editable text is in a shadow root, which ids of the page (a <label>'s
   *  for, aria-labelledby) do not reach, so it is named directly */
  label: string;
  invalid: boolean;
}

export default function CodeEditor({ text, onText, label, invalid }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(onText);
  latest.current = onText;

  // biome-ignore lint/correctness/useExhaustiveDependencies: made once; later texts arrive through the effect below
  useEffect(() => {
    const editor = mountEditor(host.current!, text, [
      basicSetup,
      json(),
      linter(jsonParseLinter()),
      EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) latest.current(update.state.doc.toString());
      }),
    ]);
    view.current = editor;
    return () => editor.destroy();
  }, [label]);

  useEffect(() => {
    if (view.current) replaceText(view.current, text);
  }, [text]);

  // said with the field's problem (role=alert under it) when the text is not what the field needs
  useEffect(() => {
    view.current?.contentDOM.setAttribute('aria-invalid', String(invalid));
  }, [invalid]);

  return <div className="code-field" ref={host} />;
}
