// A list of actions, in order: each a card with its generated form, moved up or down,
// duplicated or removed; new ones added by type. A goTo's behaviour and interaction are chosen
// from the bot's existing interactions rather than typed.
import { useState } from 'react';
import { Field, ObjectFields, Problem } from './fields';
import { fieldId, useForm } from './form-context';
import type { Action } from './model';
import { actionSchema, jsonPath, newAction, withoutIds } from './schema';
import { TextVariations } from './texts';

interface ListProps {
  actions: Action[];
  path: string;
  onChange: (actions: Action[]) => void;
  /** the types this list may hold (buttons lists hold buttons and links) */
  only?: string[];
  /** where its Add button adds, in words: the interaction's name, or the operation's (“when clicked”) */
  where: string;
}

const summary = (action: Action) => {
  const text = action.text ?? action.question ?? action.url ?? action.name ?? action.interaction ?? action.tag ?? action.variable ?? action.mode;
  return typeof text === 'string' ? text : '';
};

export function ActionList({ actions, path, onChange, only, where }: ListProps) {
  const { actionTypes, root } = useForm();
  const types = only ?? actionTypes;
  const [adding, setAdding] = useState(types[0] ?? 'text');
  const move = (from: number, to: number) => {
    const next = [...actions];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  };
  const addId = `${fieldId(path)}-add`;
  return (
    <div className="actions">
      <ol className="action-list" id={`${fieldId(path)}-list`}>
        {actions.map((action, index) => (
          <li key={index} className="action">
            <ActionCard
              action={action}
              index={index}
              count={actions.length}
              path={jsonPath(path, index)}
              onChange={(next) => onChange(actions.map((a, i) => (i === index ? next : a)))}
              onMove={(to) => move(index, to)}
              onDuplicate={() => onChange([...actions.slice(0, index + 1), withoutIds(action), ...actions.slice(index + 1)])}
              onRemove={() => onChange(actions.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      <div className="add-action">
        <label htmlFor={addId} className="sr">
          Type of the new action
        </label>
        <select id={addId} value={adding} onChange={(e) => setAdding(e.target.value)}>
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="button" id={`${addId}-button`} className="secondary small" onClick={() => onChange([...actions, newAction(root, adding) as Action])}>
          {only ? 'Add button' : 'Add action'} to {where}
        </button>
      </div>
    </div>
  );
}

interface CardProps {
  action: Action;
  index: number;
  count: number;
  path: string;
  onChange: (action: Action) => void;
  onMove: (to: number) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}

function ActionCard({ action, index, count, path, onChange, onMove, onDuplicate, onRemove }: CardProps) {
  const { root } = useForm();
  const schema = actionSchema(root, action.type);
  const title = `${index + 1}. ${action.type}`;
  const isGoTo = action.type === 'goTo';
  return (
    <section className="card-action" aria-label={`Action ${title} ${summary(action)}`}>
      <header>
        <h4>
          {title} <span className="hint">{summary(action).slice(0, 40)}</span>
        </h4>
        <span className="tools" role="group" aria-label={`Action ${index + 1} tools`}>
          <button type="button" className="icon" disabled={index === 0} onClick={() => onMove(index - 1)} aria-label={`Move action ${index + 1} up`}>
            ↑
          </button>
          <button type="button" className="icon" disabled={index === count - 1} onClick={() => onMove(index + 1)} aria-label={`Move action ${index + 1} down`}>
            ↓
          </button>
          <button type="button" className="icon" onClick={onDuplicate} aria-label={`Copy action ${index + 1} (duplicate it)`}>
            Copy
          </button>
          <button type="button" className="icon danger" onClick={onRemove} aria-label={`Remove action ${index + 1}`}>
            ✕
          </button>
        </span>
      </header>
      {isGoTo && action.mode === 'absolute' && <Target action={action} path={path} onChange={onChange} />}
      {action.type === 'text' && <TextVariations action={action} path={path} onChange={onChange} />}
      <ObjectFields
        name={action.type}
        schema={schema}
        value={action}
        required
        path={path}
        onChange={(v) => onChange(v as Action)}
        skip={isGoTo ? ['behaviour', 'interaction'] : action.type === 'text' ? ['text', 'texts'] : []}
      />
      {!schema.properties && <Field name="action" schema={{ type: 'object' }} value={action} required path={path} onChange={(v) => onChange(v as Action)} />}
    </section>
  );
}

/** A goTo's target (or a flow tool's): every interaction of the bot, by behaviour. */
export function Target({ action, path, onChange }: { action: Action; path: string; onChange: (action: Action) => void }) {
  const { bot } = useForm();
  const id = `${fieldId(path)}-target`;
  const value = JSON.stringify([action.behaviour ?? '', action.interaction ?? '']);
  const known = bot.behaviours.some((b) => b.name === action.behaviour && (!action.interaction || b.interactions.some((i) => i.name === action.interaction)));
  return (
    <div className="field">
      <label htmlFor={id}>Goes to</label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const [behaviour, interaction] = JSON.parse(e.target.value) as [string, string];
          onChange({ ...action, behaviour, ...(interaction ? { interaction } : {}) });
        }}
      >
        {!known && <option value={value}>{action.behaviour ? `${String(action.behaviour)} › ${String(action.interaction ?? 'start')} (missing)` : 'Choose an interaction…'}</option>}
        {known && !action.interaction && <option value={value}>{String(action.behaviour)} › its start</option>}
        {bot.behaviours.map((b) => (
          <optgroup key={b.name} label={b.name}>
            {b.interactions.map((i) => (
              <option key={i.name} value={JSON.stringify([b.name, i.name])}>
                {b.name} › {i.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <Problem path={jsonPath(path, 'interaction')} />
      <Problem path={jsonPath(path, 'behaviour')} />
    </div>
  );
}
