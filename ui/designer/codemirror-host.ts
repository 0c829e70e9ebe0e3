// Where the designer's CodeMirror editors live (the draft's source, a tool's JSON Schema): in a
// shadow root, because CodeMirror styles a document with a <style> element, which the console's CSP
// (style-src 'self') refuses, while in a shadow root it uses constructed style sheets, which CSP
// allows. The same focus outline everywhere, and the scroller made a tab stop (axe does not count
// the editable text as focusable).
import { EditorView } from 'codemirror';

type Extension = NonNullable<NonNullable<ConstructorParameters<typeof EditorView>[0]>['extensions']>;

export function mountEditor(host: HTMLElement, doc: string, extensions: Extension[]): EditorView {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const parent = document.createElement('div');
  parent.style.height = '100%';
  shadow.replaceChildren(parent);
  const editor = new EditorView({
    doc,
    parent,
    root: shadow,
    extensions: [EditorView.theme({ '&': { height: '100%', fontSize: '13px' }, '&.cm-focused': { outline: '3px solid #1e3a8a', outlineOffset: '-3px' } }), ...extensions],
  });
  editor.scrollDOM.tabIndex = 0;
  return editor;
}

/** Replaces the editor's text with `text` (a change made outside it: forms, undo, a reload). */
export function replaceText(editor: EditorView, text: string): void {
  if (editor.state.doc.toString() !== text) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}
