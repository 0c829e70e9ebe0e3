// The bot as a whole: its name and settings, default variables, behaviours (rename with every
// goTo following, the start behaviour, their own triggers, delete), the bot-wide triggers, the
// intents and entities with their examples, and the knowledge section with a link to the
// knowledge page. Every part is the form generated from that part of /schema/bot.json.
import { useEffect, useState } from 'react';
import { Field, ObjectFields } from './fields';
import { Form, useForm, type FormContext } from './form-context';
import { renameBehaviour, same, type BotFile } from './model';
import { jsonPath, type Schema } from './schema';
import { TriggersSummary } from './triggers';

interface Props {
  context: FormContext;
  botId: string;
  edit: (change: (bot: BotFile) => BotFile) => void;
  /** the behaviour at this index is gone: selections pointing into it are dropped */
  onBehaviourDeleted: (b: number) => void;
}

export function BotPanel({ context, botId, edit, onBehaviourDeleted }: Props) {
  const { root, bot } = context;
  const top = root.properties ?? {};
  /** A field of the bot file itself, edited in place. */
  const part = (key: string, schema: Schema | undefined = top[key]) =>
    schema && (
      <Field
        name={key}
        schema={schema}
        value={bot[key]}
        required={root.required?.includes(key) ?? false}
        path={jsonPath('$', key)}
        onChange={(value) =>
          edit((b) => {
            const next = { ...b, [key]: value };
            if (value === undefined) delete next[key];
            return next;
          })
        }
      />
    );
  return (
    <Form.Provider value={context}>
      <section className="bot-panel" aria-labelledby="bot-title">
        <h2 id="bot-title">The bot</h2>
        <TriggersSummary bot={bot} />
        {part('name')}
        {part('description')}
        {part('avatar')}
        <h3>Settings</h3>
        {top.settings && (
          <ObjectFields
            name="settings"
            schema={top.settings}
            value={bot.settings}
            required={false}
            path="$.settings"
            onChange={(v) => edit((b) => ({ ...b, settings: v as Record<string, unknown> }))}
          />
        )}
        <h3>Variables</h3>
        <p className="hint">Default values every new conversation starts with.</p>
        {part('variables')}
        <h3>Behaviours</h3>
        {bot.behaviours.map((_behaviour, b) => (
          <BehaviourFields key={b} bot={bot} b={b} edit={edit} onDeleted={() => onBehaviourDeleted(b)} />
        ))}
        <h3>Triggers of the whole bot</h3>
        <p className="hint">Checked on every user text, in order, before the current step handles it.</p>
        {part('triggers')}
        <h3>Intents and entities</h3>
        <p className="hint">Trained from the examples when a version is published.</p>
        {part('nlp')}
        <h3>Knowledge</h3>
        <p>
          <a href={`/console/knowledge?bot=${encodeURIComponent(botId)}`}>The bot's knowledge sources</a> <span className="hint">(documents, pages and FAQs it answers from)</span>
        </p>
        {part('knowledge')}
      </section>
    </Form.Provider>
  );
}

/** One behaviour's own fields: its name (renaming follows every goTo), start, description, triggers. */
function BehaviourFields({ bot, b, edit, onDeleted }: { bot: BotFile; b: number; edit: Props['edit']; onDeleted: () => void }) {
  const behaviour = bot.behaviours[b]!;
  const [name, setName] = useState(behaviour.name);
  useEffect(() => setName(behaviour.name), [behaviour.name]);
  const next = name.trim();
  const taken = next !== behaviour.name && bot.behaviours.some((x, i) => i !== b && same(x.name, next));
  const id = `behaviour-${b}`;
  const change = (key: string, value: unknown) =>
    edit((x) => ({
      ...x,
      behaviours: x.behaviours
        .map((y, i) => {
          if (key === 'start') return { ...y, start: i === b ? true : undefined };
          if (i !== b) return y;
          const copy = { ...y, [key]: value };
          if (value === undefined) delete copy[key];
          return copy;
        })
        .map((y) => (y.start === undefined ? ((({ start: _s, ...rest }) => rest)(y) as typeof y) : y)),
    }));
  return (
    <fieldset className="nested behaviour-fields">
      <legend>{behaviour.name}</legend>
      <form
        className="rename"
        onSubmit={(e) => {
          e.preventDefault();
          if (next && next !== behaviour.name && !taken) edit((x) => renameBehaviour(x, b, next));
        }}
      >
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} aria-describedby={`${id}-hint`} />
        <button type="submit" className="secondary small" disabled={!next || next === behaviour.name || taken}>
          Rename {behaviour.name}
        </button>
        <span id={`${id}-hint`} className="hint">
          {taken ? 'Another behaviour has that name.' : 'Every goTo that names it follows.'}
        </span>
      </form>
      <label className="check">
        <input type="radio" name="start-behaviour" checked={behaviour.start === true} onChange={() => change('start', true)} /> Conversations start here
      </label>
      <BehaviourPart b={b} bot={bot} field="description" onChange={(v) => change('description', v)} />
      <BehaviourPart b={b} bot={bot} field="triggers" onChange={(v) => change('triggers', v)} />
      <button
        type="button"
        className="danger small"
        disabled={bot.behaviours.length === 1}
        onClick={() => {
          if (!confirm(`Delete the behaviour ${behaviour.name} and its ${behaviour.interactions.length} interactions?`)) return;
          edit((x) => ({ ...x, behaviours: x.behaviours.filter((_, i) => i !== b) }));
          onDeleted();
        }}
      >
        Delete behaviour {behaviour.name}
      </button>
    </fieldset>
  );
}

function BehaviourPart({ bot, b, field, onChange }: { bot: BotFile; b: number; field: string; onChange: (value: unknown) => void }) {
  const schema = useForm().root.$defs?.behaviour?.properties?.[field];
  return schema ? <Field name={field} schema={schema} value={bot.behaviours[b]![field]} required={false} path={jsonPath(`$.behaviours[${b}]`, field)} onChange={onChange} /> : null;
}
