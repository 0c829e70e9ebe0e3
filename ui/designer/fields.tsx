// One form field generated from its JSON Schema: text, number, yes/no, a choice, a list of texts,
// name → text pairs, a choice between schema alternatives (anyOf), nested objects and lists of
// them, and lists of actions (an action's operations), which are edited like the top-level ones.
import { ActionList } from './actions';
import { AgentTools, toolShapes } from './agent-tools';
import { fieldId, useForm } from './form-context';
import { useEffect, useState } from 'react';
import { booleanDefault, inSentence, KINDS, label as plain, valueLabel } from './labels';
import { emptyValue, isActionList, isButtonList, jsonPath, resolve, type Schema } from './schema';

const LONG = new Set(['text', 'instructions', 'body', 'question', 'description']);

export interface FieldProps {
  name: string;
  schema: Schema;
  value: unknown;
  required: boolean;
  path: string;
  onChange: (value: unknown) => void;
}

export function Problem({ path }: { path: string }) {
  const problem = useForm().problems.get(path);
  return problem ? (
    <p className="problem" id={`${fieldId(path)}-problem`} role="alert">
      {problem}
    </p>
  ) : null;
}

function describedBy(problems: Map<string, string>, path: string) {
  return problems.has(path) ? { 'aria-describedby': `${fieldId(path)}-problem`, 'aria-invalid': true } : {};
}

export function Field(props: FieldProps) {
  const { root, problems } = useForm();
  const { name, value, path, onChange, required } = props;
  const schema = resolve(root, props.schema);
  const id = fieldId(path);
  // a field's schema may name it for people (`title`, e.g. knowledge.minScore); else its key in words
  const label = (
    <label htmlFor={id}>
      {schema.title ?? plain(name)}
      {required ? '' : <span className="hint"> (optional)</span>}
    </label>
  );
  const invalid = describedBy(problems, path);

  if (isActionList(props.schema) || isButtonList(schema)) {
    return (
      <fieldset className="nested">
        <legend>{plain(name)}</legend>
        <ActionList actions={(value as never[]) ?? []} path={path} where={`“${plain(name)}”`} onChange={onChange} only={isButtonList(schema) ? ['button', 'link'] : undefined} />
        <Problem path={path} />
      </fieldset>
    );
  }
  if (schema.anyOf) return <Choice {...props} schema={schema} />;
  if (schema.enum) {
    return (
      <div className="field">
        {label}
        <select id={id} value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} {...invalid}>
          {!required && <option value="">—</option>}
          {schema.enum.map((option) => (
            <option key={option} value={option}>
              {valueLabel(name, option)}
            </option>
          ))}
        </select>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'boolean') {
    // A box showing what the bot will do: a field left out shows its default (say, cite… are on
    // unless turned off); ticking or unticking writes the choice into the file.
    const on = value === undefined ? booleanDefault(name, schema.description) : value === true;
    return (
      <div className="field check">
        <input id={id} type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} {...invalid} />
        <label htmlFor={id}>{schema.title ?? plain(name)}</label>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    return (
      <div className="field">
        {label}
        <input
          id={id}
          type="number"
          min={schema.minimum}
          max={schema.maximum}
          step={schema.type === 'integer' ? 1 : 'any'}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
          {...invalid}
        />
        {schema.title && schema.description && <span className="hint">{schema.description}</span>}
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'array' && resolve(root, schema.items ?? {}).type === 'string') {
    return (
      <div className="field">
        {label}
        <textarea
          id={id}
          rows={3}
          value={((value as string[]) ?? []).join('\n')}
          aria-label={`${schema.title ?? plain(name)}, one per line`}
          onChange={(e) => onChange(e.target.value === '' && !required ? undefined : e.target.value.split('\n'))}
          {...invalid}
        />
        <span className="hint">One per line.</span>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'array' && toolShapes(root, schema).size > 0) return <AgentTools {...props} schema={schema} />;
  if (schema.type === 'array') return <ObjectList {...props} schema={schema} />;
  if (schema.type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') return <Pairs {...props} schema={schema} />;
  if (schema.type === 'object') return <ObjectFields {...props} schema={schema} legend={plain(name)} />;
  const Input = LONG.has(name) ? 'textarea' : 'input';
  return (
    <div className="field">
      {label}
      <Input
        id={id}
        {...(Input === 'textarea' ? { rows: 2 } : { type: 'text' })}
        value={(value as string) ?? ''}
        dir="auto"
        onChange={(e: { target: { value: string } }) => onChange(e.target.value === '' && !required ? undefined : e.target.value)}
        {...invalid}
      />
      {schema.description && <span className="hint">{schema.description}</span>}
      <Problem path={path} />
    </div>
  );
}

/** An object's own fields (type and ids are not edited: the type is fixed, ids are the server's). */
export function ObjectFields({ schema, value, path, onChange, legend, skip = [] }: FieldProps & { legend?: string; skip?: string[] }) {
  const { root } = useForm();
  const object = (value as Record<string, unknown>) ?? {};
  const fields = Object.entries(resolve(root, schema).properties ?? {}).filter(([key]) => key !== 'type' && key !== 'id' && !skip.includes(key));
  const body = fields.map(([key, field]) => (
    <Field
      key={key}
      name={key}
      schema={field}
      value={object[key]}
      required={schema.required?.includes(key) ?? false}
      path={jsonPath(path, key)}
      onChange={(next) => {
        const copy = { ...object, [key]: next };
        if (next === undefined) delete copy[key];
        onChange(copy);
      }}
    />
  ));
  return legend ? (
    <fieldset className="nested">
      <legend>{legend}</legend>
      {body}
    </fieldset>
  ) : (
    body
  );
}

/** A list of objects (carousel cards): each a sub-form, with add and remove. */
function ObjectList({ name, schema, value, path, onChange }: FieldProps) {
  const { root } = useForm();
  const items = (value as unknown[]) ?? [];
  const item = resolve(root, schema.items ?? {});
  const set = (index: number, next: unknown) => onChange(items.map((x, i) => (i === index ? next : x)));
  return (
    <fieldset className="nested">
      <legend>{plain(name)}</legend>
      {items.map((x, index) => (
        <div className="item" key={index}>
          <Field name={`${name} ${index + 1}`} schema={schema.items ?? {}} value={x} required path={jsonPath(path, index)} onChange={(next) => set(index, next)} />
          <button type="button" className="secondary small" onClick={() => onChange(items.filter((_, i) => i !== index))}>
            Remove {inSentence(name)} {index + 1}
          </button>
        </div>
      ))}
      <button type="button" id={`${fieldId(path)}-add-item`} className="secondary small" onClick={() => onChange([...items, emptyValue(root, item)])}>
        Add to {inSentence(name)}
      </button>
      <Problem path={path} />
    </fieldset>
  );
}

/** A field that may be one of several shapes (an input's expect): pick the shape, then fill it. */
function Choice(props: FieldProps) {
  const { root } = useForm();
  const options = props.schema.anyOf!.map((o) => resolve(root, o));
  const fits = (o: Schema, v: unknown) =>
    o.enum ? o.enum.includes(v as string) : o.type === 'object' ? typeof v === 'object' && v !== null && (o.required ?? []).every((k) => k in (v as object)) : typeof v === o.type;
  const current = Math.max(
    0,
    options.findIndex((o) => fits(o, props.value)),
  );
  // each shape in words: the schema's own are for the file ("one of a list", "regex")
  const name = (o: Schema) => {
    if (o.enum) return KINDS.list;
    if (o.type !== 'object') return KINDS.alternatives;
    const key = (o.required ?? []).filter((k) => k !== 'actions').join(', ');
    return (KINDS as Record<string, string>)[key] ?? plain(key);
  };
  const id = `${fieldId(props.path)}-kind`;
  return (
    <fieldset className="nested">
      <legend>{plain(props.name)}</legend>
      <div className="field">
        <label htmlFor={id}>Kind</label>
        <select id={id} value={current} onChange={(e) => props.onChange(emptyValue(root, options[Number(e.target.value)]!) || (options[Number(e.target.value)]!.type === 'string' ? 'yes|no' : ''))}>
          {options.map((o, i) => (
            <option key={i} value={i}>
              {name(o)}
            </option>
          ))}
        </select>
      </div>
      {options[current]!.type === 'object' ? <ObjectFields {...props} schema={options[current]!} /> : <Field {...props} name="value" schema={options[current]!} />}
    </fieldset>
  );
}

/** name → value pairs (callApi headers, ai fields, variables, an entity's values), one
 *  "name: value" a line; a list value is written "a, b, c". Kept as typed while it means the same. */
function Pairs({ name, schema, value, required, path, onChange }: FieldProps) {
  const { root, problems } = useForm();
  const lists = resolve(root, schema.additionalProperties as Schema).type === 'array';
  const format = (v: unknown) =>
    Object.entries((v as Record<string, unknown>) ?? {})
      .map(([k, x]) => `${k}: ${Array.isArray(x) ? x.join(', ') : String(x)}`)
      .join('\n');
  const parse = (text: string) => {
    const lines = text.split('\n').filter((l) => l.includes(':'));
    if (lines.length === 0) return undefined;
    return Object.fromEntries(
      lines.map((l) => {
        const [k, x] = [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()];
        return [
          k,
          lists
            ? x
                .split(',')
                .map((y) => y.trim())
                .filter(Boolean)
            : x,
        ];
      }),
    );
  };
  const [text, setText] = useState(() => format(value));
  // biome-ignore lint/correctness/useExhaustiveDependencies: rewrites the text only when the value changes from outside, never while the user types
  useEffect(() => {
    if (JSON.stringify(parse(text) ?? {}) !== JSON.stringify(value ?? {})) setText(format(value));
  }, [value]);
  const id = fieldId(path);
  return (
    <div className="field">
      <label htmlFor={id}>
        {plain(name)}
        {required ? '' : <span className="hint"> (optional)</span>}
      </label>
      <textarea
        id={id}
        rows={3}
        value={text}
        dir="auto"
        onChange={(e) => {
          setText(e.target.value);
          onChange(parse(e.target.value) ?? (required ? {} : undefined));
        }}
        {...describedBy(problems, path)}
      />
      <span className="hint">One “name: {lists ? 'a, b, c' : 'value'}” per line.</span>
      <Problem path={path} />
    </div>
  );
}
