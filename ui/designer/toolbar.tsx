// The draft's toolbar: Save with the one save status beside it (issue 37), Undo, Redo, the
// Source view's toggle and Publish.
interface Props {
  saving: boolean;
  /** the save status in words */
  status: string;
  /** the status shows as a change not yet saved */
  pending: boolean;
  /** the status says why a save did not happen */
  failed: boolean;
  sourceShown: boolean;
  onSave: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onToggleSource: () => void;
  onPublish: () => void;
}

export function Toolbar({ saving, status, pending, failed, sourceShown, onSave, onUndo, onRedo, onToggleSource, onPublish }: Props) {
  return (
    <div className="toolbar" role="toolbar" aria-label="Draft">
      <button type="button" onClick={onSave} disabled={saving} aria-keyshortcuts="Control+S">
        Save
      </button>
      <span className={`unsaved${pending || failed ? '' : ' clean'}${failed ? ' error' : ''}`} id="unsaved" role="status" aria-live="polite">
        {status}
      </span>
      <button type="button" className="secondary" onClick={onUndo} aria-keyshortcuts="Control+Z">
        Undo
      </button>
      <button type="button" className="secondary" onClick={onRedo} aria-keyshortcuts="Control+Shift+Z">
        Redo
      </button>
      <button type="button" className="secondary" aria-pressed={sourceShown} onClick={onToggleSource}>
        Source
      </button>
      <button type="button" className="publish" onClick={onPublish}>
        Publish
      </button>
    </div>
  );
}
