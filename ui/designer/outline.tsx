// The list beside the canvas: every behaviour and its interactions, as buttons, so everything the
// canvas does (select, see start/fallback, problems, the preview's last step) works by keyboard.
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
  onAddBehaviour: () => void;
}

export function Outline({ bot, selected, heard, problemCounts, onSelect, onAddInteraction, onAddBehaviour }: Props) {
  return (
    <nav className="outline" aria-labelledby="outline-title">
      <h2 id="outline-title">Behaviours</h2>
      <ul className="behaviours">
        {bot.behaviours.map((behaviour, b) => (
          <li key={b}>
            <h3>{behaviour.name}{behaviour.start && <span className="mark">start</span>}</h3>
            <ul className="interactions">
              {behaviour.interactions.map((interaction, i) => {
                const id = placeId({ b, i });
                const problems = problemCounts.get(id) ?? 0;
                return (
                  <li key={i}>
                    <button type="button" className={`pick${heard && placeId(heard) === id ? ' heard' : ''}`} aria-current={selected && placeId(selected) === id ? 'true' : undefined}
                      data-place={id} onClick={() => onSelect({ b, i })}>
                      <span className="name">{interaction.name}</span>
                      {interaction.start && <span className="mark">start</span>}
                      {interaction.fallback && <span className="mark fallback">fallback</span>}
                      {problems > 0 && <span className="mark problem">{problems} problem{problems > 1 ? 's' : ''}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
            <button type="button" className="secondary small" onClick={() => onAddInteraction(b)}>Add interaction to {behaviour.name}</button>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary small" onClick={onAddBehaviour}>Add behaviour</button>
    </nav>
  );
}
