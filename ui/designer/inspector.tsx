// The side panel for the selected interaction: its name (renaming follows every reference), its
// marks, and its actions in order, each through the form generated from its type's schema.
import { useEffect, useState } from 'react';
import { ActionList } from './actions';
import { Problem } from './fields';
import { Form, type FormContext } from './form-context';
import { renameInteraction, same, type Action, type BotFile, type Interaction, type Place } from './model';
import { jsonPath } from './schema';

interface Props {
  context: FormContext;
  here: Place;
  edit: (change: (bot: BotFile) => BotFile) => void;
  onDeleted: () => void;
}

/** A copy of the bot with one interaction replaced. */
function withInteraction(bot: BotFile, at: Place, interaction: Interaction): BotFile {
  return {
    ...bot,
    behaviours: bot.behaviours.map((b, bi) => (bi !== at.b ? b : { ...b, interactions: b.interactions.map((x, ii) => (ii === at.i ? interaction : x)) })),
  };
}

export function Inspector({ context, here, edit, onDeleted }: Props) {
  const { bot } = context;
  const behaviour = bot.behaviours[here.b]!;
  const interaction = behaviour.interactions[here.i]!;
  const base = `$.behaviours[${here.b}].interactions[${here.i}]`;
  const [name, setName] = useState(interaction.name);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another interaction chosen (here.b, here.i) resets the name even when both names are equal
  useEffect(() => setName(interaction.name), [interaction.name, here.b, here.i]);
  const taken = name.trim() !== interaction.name && behaviour.interactions.some((x) => same(x.name, name.trim()));
  const change = (next: Partial<Interaction>) => edit((b) => withInteraction(b, here, { ...interaction, ...next }));
  const flag = (key: 'start' | 'fallback' | 'enableUserChat', label: string) => (
    <label className="check">
      <input type="checkbox" checked={interaction[key] === true} onChange={(e) => change({ [key]: e.target.checked })} /> {label}
    </label>
  );
  const rename = () => {
    const next = name.trim();
    if (next && next !== interaction.name && !taken) edit((b) => renameInteraction(b, here, next));
  };
  return (
    <Form.Provider value={context}>
      <section className="inspector" aria-labelledby="inspector-title">
        <h2 id="inspector-title" tabIndex={-1}>
          <span className="hint">{behaviour.name} ›</span> {interaction.name}
        </h2>
        <form
          className="rename"
          onSubmit={(e) => {
            e.preventDefault();
            rename();
          }}
        >
          <label htmlFor="interaction-name">Name</label>
          <input id="interaction-name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="rename-hint" />
          <button type="submit" className="secondary small" disabled={!name.trim() || name.trim() === interaction.name || taken}>
            Rename
          </button>
          <span id="rename-hint" className="hint">
            {taken ? 'Another interaction of this behaviour has that name.' : 'Every goTo and button that leads here follows.'}
          </span>
        </form>
        <Problem path={jsonPath(base, 'name')} />
        <div className="flags" role="group" aria-label="Marks">
          {flag('start', 'Start')}
          {flag('fallback', 'Fallback')}
          {flag('enableUserChat', 'User may type here')}
        </div>
        <h3>Actions</h3>
        <Problem path={jsonPath(base, 'actions')} />
        <ActionList actions={interaction.actions} path={jsonPath(base, 'actions')} where={interaction.name} onChange={(actions: Action[]) => change({ actions })} />
        <button
          type="button"
          className="danger small"
          onClick={() => {
            if (!confirm(`Delete the interaction ${interaction.name}?`)) return;
            edit((b) => ({ ...b, behaviours: b.behaviours.map((x, bi) => (bi !== here.b ? x : { ...x, interactions: x.interactions.filter((_, ii) => ii !== here.i) })) }));
            onDeleted();
          }}
        >
          Delete interaction
        </button>
      </section>
    </Form.Provider>
  );
}
