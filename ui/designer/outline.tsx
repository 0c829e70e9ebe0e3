// The list beside the canvas: every behaviour and its interactions, as buttons, so everything the
// canvas does (select, see start/fallback, problems, the preview's last step) works by keyboard.
import { useEffect, useRef, useState } from 'react';
import { placeId, type BotFile, type Place } from './model';

/** What the outline and the canvas both show and do. */
export interface FlowViewProps {
  bot: BotFile;
  selected: Place | null;
  heard: Place | null;
  problemCounts: Map<string, number>;
  onSelect: (place: Place) => void;
}

interface Props extends FlowViewProps {
  onAddInteraction: (behaviour: number) => void;
  /** adds a behaviour of that name and selects it; or says why the name will not do */
  onAddBehaviour: (name: string) => string | null;
}

export function Outline({ bot, selected, heard, problemCounts, onSelect, onAddInteraction, onAddBehaviour }: Props) {
  return (
    <nav className="outline" aria-labelledby="outline-title">
      <h2 id="outline-title">Behaviours</h2>
      <ul className="behaviours">
        {bot.behaviours.map((behaviour, b) => (
          <li key={b}>
            <h3>
              {behaviour.name}
              {behaviour.start && <span className="mark">start</span>}
            </h3>
            <ul className="interactions">
              {behaviour.interactions.map((interaction, i) => {
                const id = placeId({ b, i });
                const problems = problemCounts.get(id) ?? 0;
                return (
                  <li key={i}>
                    <button
                      type="button"
                      className={`pick${heard && placeId(heard) === id ? ' heard' : ''}`}
                      aria-current={selected && placeId(selected) === id ? 'true' : undefined}
                      data-place={id}
                      onClick={() => onSelect({ b, i })}
                    >
                      <span className="name">{interaction.name}</span>
                      {interaction.start && <span className="mark">start</span>}
                      {interaction.fallback && <span className="mark fallback">fallback</span>}
                      {problems > 0 && (
                        <span className="mark problem">
                          {problems} problem{problems > 1 ? 's' : ''}
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
            <button type="button" className="secondary small" onClick={() => onAddInteraction(b)}>
              Add interaction to {behaviour.name}
            </button>
          </li>
        ))}
      </ul>
      <NewBehaviour count={bot.behaviours.length} onAdd={onAddBehaviour} />
    </nav>
  );
}

/**
 * "Add behaviour" asks for the name in place (Enter adds, Escape cancels) rather than adding a
 * "New behaviour" to rename later; the new behaviour's start step then has the focus, selected.
 */
function NewBehaviour({ count, onAdd }: { count: number; onAdd: (name: string) => string | null }) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [why, setWhy] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const added = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the count of behaviours changes, i.e. once the one just added is drawn
  useEffect(() => {
    // the behaviour just added is drawn now: its first interaction takes the focus
    if (added.current === null) return;
    document.querySelector<HTMLElement>(`.outline [data-place="${added.current}/0"]`)?.focus();
    added.current = null;
  }, [count]);
  const close = () => {
    setNaming(false);
    setName('');
    setWhy('');
  };
  if (!naming)
    return (
      <button type="button" ref={opener} className="secondary small" onClick={() => setNaming(true)}>
        Add behaviour
      </button>
    );
  return (
    <form
      className="new-behaviour"
      onSubmit={(e) => {
        e.preventDefault();
        const refused = onAdd(name.trim());
        if (refused) return setWhy(refused);
        added.current = count;
        close();
      }}
    >
      <label htmlFor="new-behaviour-name">Name of the new behaviour</label>
      <input
        id="new-behaviour-name"
        // biome-ignore lint/a11y/noAutofocus: the form was opened by the user to type this name; focus goes straight there
        autoFocus
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setWhy('');
        }}
        aria-describedby="new-behaviour-hint"
        {...(why ? { 'aria-invalid': true } : {})}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          close();
          requestAnimationFrame(() => opener.current?.focus());
        }}
      />
      <span id="new-behaviour-hint" className={why ? 'problem' : 'hint'} role={why ? 'alert' : undefined}>
        {why || 'Enter adds it, Escape cancels.'}
      </span>
      <span className="buttons">
        <button type="submit" className="small">
          Add
        </button>
        <button
          type="button"
          className="secondary small"
          onClick={() => {
            close();
            requestAnimationFrame(() => opener.current?.focus());
          }}
        >
          Cancel
        </button>
      </span>
    </form>
  );
}
