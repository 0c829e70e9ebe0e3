// An agent's tools (agents.md "Tools") as forms: each a card with its kind in plain words, moved up
// or down or removed; new ones added by kind. A tool's fields come from that kind's schema (the
// bot schema's anyOf of tool shapes), except the JSON Schemas, written in a code field, and a flow
// tool's behaviour and interaction, chosen from the bot's interactions like a goTo's target.
import { useState } from 'react';
import { Target } from './actions';
import { Field, Problem, type FieldProps } from './fields';
import { fieldId, useForm } from './form-context';
import { TOOL_KINDS } from './labels';
import type { Action } from './model';
import { emptyValue, jsonPath, resolve, type Schema } from './schema';
import { SchemaField } from './schema-field';

type Tool = Record<string, unknown> & { type: string };

/** The tool shapes of a list's schema by their `type`; none when the list is not an agent's tools. */
export function toolShapes(root: Schema, list: Schema): Map<string, Schema> {
  const shapes = new Map<string, Schema>();
  for (const option of resolve(root, list.items ?? {}).anyOf ?? []) {
    const shape = resolve(root, option);
    const type = shape.properties?.type?.const;
    if (typeof type === 'string') shapes.set(type, shape);
  }
  return shapes;
}

/** A new tool of a kind: its required fields, keeping the name and description the old one had. */
function newTool(root: Schema, shape: Schema, type: string, from?: Tool): Tool {
  const tool: Tool = { ...(emptyValue(root, shape) as Record<string, unknown>), type };
  if (type === 'http') tool.request = { method: 'GET', url: '' };
  for (const key of ['name', 'description']) if (from && typeof from[key] === 'string' && shape.properties?.[key]) tool[key] = from[key];
  return tool;
}

const summary = (tool: Tool) => (typeof tool.name === 'string' ? tool.name : typeof tool.server === 'string' ? tool.server : '');

export function AgentTools({ schema, value, path, onChange }: FieldProps) {
  const { root } = useForm();
  const shapes = toolShapes(root, schema);
  const kinds = [...shapes.keys()];
  const tools = (value as Tool[] | undefined) ?? [];
  const [adding, setAdding] = useState(kinds[0] ?? 'http');
  const set = (next: Tool[]) => onChange(next.length === 0 ? undefined : next);
  const move = (from: number, to: number) => {
    const next = [...tools];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    set(next);
  };
  const addId = `${fieldId(path)}-add`;
  return (
    <fieldset className="nested tools-list">
      <legend>Tools the model may use</legend>
      <ol className="action-list">
        {tools.map((tool, index) => (
          <li key={index} className="action">
            <ToolCard
              tool={tool}
              index={index}
              count={tools.length}
              shapes={shapes}
              path={jsonPath(path, index)}
              onChange={(next) => set(tools.map((t, i) => (i === index ? next : t)))}
              onMove={(to) => move(index, to)}
              onRemove={() => set(tools.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      <div className="add-action">
        <label htmlFor={addId} className="sr">
          Kind of the new tool
        </label>
        <select id={addId} value={adding} onChange={(e) => setAdding(e.target.value)}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {TOOL_KINDS[k] ?? k}
            </option>
          ))}
        </select>
        <button type="button" id={`${addId}-button`} className="secondary small" onClick={() => set([...tools, newTool(root, shapes.get(adding)!, adding)])}>
          Add tool
        </button>
      </div>
      <Problem path={path} />
    </fieldset>
  );
}

interface CardProps {
  tool: Tool;
  index: number;
  count: number;
  shapes: Map<string, Schema>;
  path: string;
  onChange: (tool: Tool) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function ToolCard({ tool, index, count, shapes, path, onChange, onMove, onRemove }: CardProps) {
  const { root } = useForm();
  const shape = shapes.get(tool.type);
  const kindId = `${fieldId(path)}-kind`;
  const kind = TOOL_KINDS[tool.type] ?? tool.type;
  const n = index + 1;
  const fields = Object.entries(shape?.properties ?? {}).filter(([key]) => key !== 'type' && key !== 'interaction');
  const setField = (key: string, next: unknown) => {
    const copy: Tool = { ...tool, [key]: next };
    if (next === undefined) delete copy[key];
    onChange(copy);
  };
  return (
    <section className="card-action" aria-label={`Tool ${n}: ${kind} ${summary(tool)}`}>
      <header>
        <h4>
          {n}. {kind} <span className="hint">{summary(tool).slice(0, 40)}</span>
        </h4>
        <span className="tools" role="group" aria-label={`Tool ${n} moves`}>
          <button type="button" className="icon" disabled={index === 0} onClick={() => onMove(index - 1)} aria-label={`Move tool ${n} up`}>
            ↑
          </button>
          <button type="button" className="icon" disabled={index === count - 1} onClick={() => onMove(index + 1)} aria-label={`Move tool ${n} down`}>
            ↓
          </button>
          <button type="button" className="icon danger" onClick={onRemove} aria-label={`Remove tool ${n}`}>
            ✕
          </button>
        </span>
      </header>
      <div className="field">
        <label htmlFor={kindId}>Kind of tool</label>
        <select
          id={kindId}
          value={tool.type}
          onChange={(e) => {
            const next = shapes.get(e.target.value);
            if (next) onChange(newTool(root, next, e.target.value, tool));
          }}
        >
          {!shape && <option value={tool.type}>{tool.type} (unknown)</option>}
          {[...shapes.keys()].map((k) => (
            <option key={k} value={k}>
              {TOOL_KINDS[k] ?? k}
            </option>
          ))}
        </select>
      </div>
      {fields.map(([key, field]) => {
        const props = { name: key, schema: field, value: tool[key], required: shape?.required?.includes(key) ?? false, path: jsonPath(path, key), onChange: (next: unknown) => setField(key, next) };
        if (key === 'parameters' || key === 'schema') return <SchemaField key={key} {...props} />;
        if (key === 'behaviour' && tool.type === 'flow') return <Target key={key} action={tool as Action} path={path} onChange={(next) => onChange(next as Tool)} />;
        return <Field key={key} {...props} />;
      })}
    </section>
  );
}
