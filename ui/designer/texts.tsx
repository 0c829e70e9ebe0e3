// A text action's words as one field (issue 37): the file has `text` (one) and `texts` (variations,
// one picked at random each time), but a person writes a text and may add variations of it. One
// text is saved as `text`, two or more as `texts`, so the file stays what a hand would write.
import { Problem } from './fields';
import { fieldId, useForm } from './form-context';
import type { Action } from './model';
import { jsonPath } from './schema';

interface Props {
  action: Action;
  path: string;
  onChange: (action: Action) => void;
}

export function TextVariations({ action, path, onChange }: Props) {
  const { problems } = useForm();
  const many = Array.isArray(action.texts);
  const texts: string[] = many ? (action.texts as unknown[]).map((t) => (typeof t === 'string' ? t : '')) : [typeof action.text === 'string' ? action.text : ''];
  // each text's JSONPath, which is also where the server names a problem of it
  const at = (n: number) => (many ? jsonPath(jsonPath(path, 'texts'), n) : jsonPath(path, 'text'));
  const set = (next: string[]) => {
    const { text: _text, texts: _texts, ...rest } = action;
    // an emptied single text is left out, as any emptied optional field is: the problem says it is needed
    onChange(next.length > 1 ? { ...rest, texts: next } : next[0] ? { ...rest, text: next[0] } : rest);
  };
  return (
    <div className="texts">
      {texts.map((text, n) => {
        const id = fieldId(at(n));
        const invalid = problems.has(at(n)) ? { 'aria-describedby': `${id}-problem`, 'aria-invalid': true } : {};
        return (
          <div className="field" key={n}>
            <label htmlFor={id}>{n === 0 ? 'Text' : `Variation ${n + 1}`}</label>
            <textarea id={id} rows={2} dir="auto" value={text} onChange={(e) => set(texts.map((t, i) => (i === n ? e.target.value : t)))} {...invalid} />
            {n > 0 && (
              <button type="button" className="secondary small" onClick={() => set(texts.filter((_, i) => i !== n))}>
                Remove variation {n + 1}
              </button>
            )}
            <Problem path={at(n)} />
          </div>
        );
      })}
      {texts.length > 1 && <p className="hint">Each time, the bot says one of these at random.</p>}
      <button type="button" id={`${fieldId(path)}-add-variation`} className="secondary small" onClick={() => set([...texts, ''])}>
        Add a variation
      </button>
      <Problem path={jsonPath(path, 'texts')} />
    </div>
  );
}
