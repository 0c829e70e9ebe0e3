// The designer's keys (Ctrl+S saves, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo the draft), the
// browser's "leave the page?" while something is unsaved, and the ● in the tab's title.
import { useEffect } from 'react';

/** Whether keys go to something with its own undo: a text field, a list, the code editor (whose
 *  shadow root makes its host the target). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.matches('input:not([type=checkbox]):not([type=radio]), textarea, select, [contenteditable=true]') || target.closest('.source-editor') !== null);

interface Keyed {
  save: () => unknown;
  undo: () => void;
  redo: () => void;
  unsaved: boolean;
}

export function useDraftShortcuts({ save, undo, redo, unsaved }: Keyed) {
  useEffect(() => {
    const keys = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      const key = e.key.toLowerCase();
      if (key === 's') {
        e.preventDefault();
        void save();
      }
      // In a text field or the source editor, Ctrl+Z is that field's own undo of its keystrokes.
      else if (typing(e.target)) return;
      else if (key === 'z' && e.shiftKey) {
        e.preventDefault();
        redo();
      } else if (key === 'z') {
        e.preventDefault();
        undo();
      } else if (key === 'y') {
        e.preventDefault();
        redo();
      }
    };
    const leaving = (e: BeforeUnloadEvent) => {
      if (unsaved) e.preventDefault();
    };
    window.addEventListener('keydown', keys);
    window.addEventListener('beforeunload', leaving);
    document.title = `${unsaved ? '● ' : ''}Designer — Colloquy`;
    return () => {
      window.removeEventListener('keydown', keys);
      window.removeEventListener('beforeunload', leaving);
    };
  }, [save, unsaved, undo, redo]);
}
