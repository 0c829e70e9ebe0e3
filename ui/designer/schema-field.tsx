// A field holding a JSON Schema (an agent tool's `parameters`, a variable tool's `schema`), written
// as JSON in a code editor. The text becomes the field's value once it is JSON; what is wrong with
// it is said under the field as one types: not JSON yet (the draft keeps the last JSON), or JSON
// that is not the schema the tool needs (the same rule the server applies at save, agents.md
// "Checked at save and publish"). A problem the server found there is shown the same way.
import { lazy, Suspense, useEffect, useState } from 'react';
import type { FieldProps } from './fields';
import { fieldId, useForm } from './form-context';
import { label as plain } from './labels';

const CodeEditor = lazy(() => import('./code-editor'));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

/** What is wrong with the text as this field's schema; null when it is one. */
export function schemaTextProblem(text: string, objectSchema: boolean): { problem: string | null; value?: unknown } {
  if (text.trim() === '') return { problem: null, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `Not JSON: ${(e as Error).message}` };
  }
  if (!isObject(value)) return { problem: 'A JSON Schema is an object: { … }.', value };
  if (objectSchema && value.type !== 'object') return { problem: 'The arguments are an object: the schema needs "type": "object".', value };
  return { problem: null, value };
}

export function SchemaField({ name, value, required, path, onChange }: FieldProps) {
  const { problems } = useForm();
  const objectSchema = name === 'parameters';
  const [text, setText] = useState(() => show(value));
  // biome-ignore lint/correctness/useExhaustiveDependencies: rewrites the text only when the value changes from outside (undo, source view), never while the user types
  useEffect(() => {
    const own = schemaTextProblem(text, objectSchema);
    if (!('value' in own) || JSON.stringify(own.value) !== JSON.stringify(value)) setText(show(value));
  }, [value]);
  const local = schemaTextProblem(text, objectSchema).problem;
  const problem = local ?? problems.get(path);
  const id = fieldId(path);
  const title = plain(name);
  return (
    <div className="field" id={id}>
      <span className="label" id={`${id}-label`}>
        {title}
        {required ? '' : <span className="hint"> (optional)</span>}
      </span>
      <Suspense fallback={<p className="hint">Loading the editor…</p>}>
        <CodeEditor
          text={text}
          label={`${title} (JSON Schema)`}
          invalid={problem !== undefined && problem !== null}
          onText={(next) => {
            setText(next);
            const outcome = schemaTextProblem(next, objectSchema);
            if ('value' in outcome && JSON.stringify(outcome.value) !== JSON.stringify(value)) onChange(outcome.value);
          }}
        />
      </Suspense>
      <span className="hint">{objectSchema ? 'JSON Schema of the arguments the model gives, e.g. { "type": "object", "properties": { … } }.' : 'JSON Schema the value must fit.'}</span>
      {problem && (
        <p className="problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
