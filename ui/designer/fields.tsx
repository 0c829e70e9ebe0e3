// One form field generated from its JSON Schema: text, number, yes/no, a choice, a list of texts,
// name → text pairs, a choice between schema alternatives (anyOf), nested objects and lists of
// them, and lists of actions (an action's operations), which are edited like the top-level ones.
import { ActionList } from './actions';
import { fieldId, useForm } from './form-context';
import { emptyValue, isActionList, isButtonList, jsonPath, resolve, words, type Schema } from './schema';

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
  return problem ? <p className="problem" id={`${fieldId(path)}-problem`} role="alert">{problem}</p> : null;
}

function describedBy(problems: Map<string, string>, path: string) {
  return problems.has(path) ? { 'aria-describedby': `${fieldId(path)}-problem`, 'aria-invalid': true } : {};
}

export function Field(props: FieldProps) {
  const { root, problems } = useForm();
  const { name, value, path, onChange, required } = props;
  const schema = resolve(root, props.schema);
  const id = fieldId(path);
  const label = <label htmlFor={id}>{words(name)}{required ? '' : <span className="hint"> (optional)</span>}</label>;
  const invalid = describedBy(problems, path);

  if (isActionList(props.schema) || isButtonList(schema)) {
    return (
      <fieldset className="nested">
        <legend>{words(name)}</legend>
        <ActionList actions={(value as never[]) ?? []} path={path} onChange={onChange} only={isButtonList(schema) ? ['button', 'link'] : undefined} />
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
          {schema.enum.map((option) => <option key={option} value={option}>{option}</option>)}
        </select>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'boolean') {
    return (
      <div className="field check">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked ? true : required ? false : undefined)} {...invalid} />
        {label}
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    return (
      <div className="field">
        {label}
        <input id={id} type="number" min={schema.minimum} max={schema.maximum} step={schema.type === 'integer' ? 1 : 'any'} value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} {...invalid} />
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'array' && resolve(root, schema.items ?? {}).type === 'string') {
    return (
      <div className="field">
        {label}
        <textarea id={id} rows={3} value={((value as string[]) ?? []).join('\n')} aria-label={`${words(name)}, one per line`}
          onChange={(e) => onChange(e.target.value === '' && !required ? undefined : e.target.value.split('\n'))} {...invalid} />
        <span className="hint">One per line.</span>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'array') return <ObjectList {...props} schema={schema} />;
  if (schema.type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
    const pairs = Object.entries((value as Record<string, string>) ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
    return (
      <div className="field">
        {label}
        <textarea id={id} rows={3} defaultValue={pairs} onBlur={(e) => onChange(e.target.value.trim() === '' ? undefined : Object.fromEntries(e.target.value.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()])))} {...invalid} />
        <span className="hint">One “name: value” per line.</span>
        <Problem path={path} />
      </div>
    );
  }
  if (schema.type === 'object') return <ObjectFields {...props} schema={schema} legend={words(name)} />;
  const Input = LONG.has(name) ? 'textarea' : 'input';
  return (
    <div className="field">
      {label}
      <Input id={id} {...(Input === 'textarea' ? { rows: 2 } : { type: 'text' })} value={(value as string) ?? ''} dir="auto"
        onChange={(e: { target: { value: string } }) => onChange(e.target.value === '' && !required ? undefined : e.target.value)} {...invalid} />
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
    <Field key={key} name={key} schema={field} value={object[key]} required={schema.required?.includes(key) ?? false} path={jsonPath(path, key)}
      onChange={(next) => {
        const copy = { ...object, [key]: next };
        if (next === undefined) delete copy[key];
        onChange(copy);
      }} />
  ));
  return legend ? <fieldset className="nested"><legend>{legend}</legend>{body}</fieldset> : <>{body}</>;
}

/** A list of objects (carousel cards): each a sub-form, with add and remove. */
function ObjectList({ name, schema, value, path, onChange }: FieldProps) {
  const { root } = useForm();
  const items = (value as unknown[]) ?? [];
  const item = resolve(root, schema.items ?? {});
  const set = (index: number, next: unknown) => onChange(items.map((x, i) => (i === index ? next : x)));
  return (
    <fieldset className="nested">
      <legend>{words(name)}</legend>
      {items.map((x, index) => (
        <div className="item" key={index}>
          <ObjectFields name={`${name} ${index + 1}`} schema={item} value={x} required path={jsonPath(path, index)} onChange={(next) => set(index, next)} legend={`${words(name)} ${index + 1}`} />
          <button type="button" className="secondary small" onClick={() => onChange(items.filter((_, i) => i !== index))}>Remove {words(name)} {index + 1}</button>
        </div>
      ))}
      <button type="button" className="secondary small" onClick={() => onChange([...items, emptyValue(root, item.type === 'object' ? { type: 'object' } : item)])}>Add to {words(name)}</button>
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
  const current = Math.max(0, options.findIndex((o) => fits(o, props.value)));
  const name = (o: Schema) => (o.enum ? 'one of a list' : o.type === 'object' ? (o.required ?? []).join(', ') : o.description ?? o.type ?? 'value');
  const id = `${fieldId(props.path)}-kind`;
  return (
    <fieldset className="nested">
      <legend>{words(props.name)}</legend>
      <div className="field">
        <label htmlFor={id}>kind</label>
        <select id={id} value={current} onChange={(e) => props.onChange(emptyValue(root, options[Number(e.target.value)]!) || (options[Number(e.target.value)]!.type === 'string' ? 'yes|no' : ''))}>
          {options.map((o, i) => <option key={i} value={i}>{name(o)}</option>)}
        </select>
      </div>
      {options[current]!.type === 'object'
        ? <ObjectFields {...props} schema={options[current]!} />
        : <Field {...props} name="value" schema={options[current]!} />}
    </fieldset>
  );
}
