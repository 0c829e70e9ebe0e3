// The CSAT card's offer when nobody rated a conversation in the period (issue 37): instead of
// telling a designer to "set the variable csat", the card adds a rating question to the bot. One
// click puts a behaviour "Rating" in the bot's draft (buttons 1 to 5 that set `csat`, the
// well-known variable docs/analytics.md counts), and links to the designer, where the designer
// leads conversations to it and publishes. A draft that already sets `csat` is left alone: the
// card says where the bot asks. The draft is saved with If-Match of the version read, so a save
// from the designer in between is never overwritten (the server refuses, and the card says so).
import { consoleApi } from '../shared/api-client';
import type { BotAnalytics } from './types';

const api = consoleApi;

interface Interaction {
  name: string;
  actions?: unknown[];
}
interface Behaviour {
  name: string;
  interactions: Interaction[];
}
interface DraftFile {
  behaviours: Behaviour[];
}

/** The question the added behaviour asks, as the card quotes it. */
const QUESTION = 'How would you rate this conversation? 1 is poor, 5 is great.';

/** A behaviour that asks for a rating: clears `csat` first, so that asking again later counts again. */
export function ratingBehaviour(name: string): Behaviour {
  const rate = (n: number) => ({
    type: 'button',
    text: String(n),
    onClick: [
      { type: 'setVariable', name: 'csat', value: String(n) },
      { type: 'text', text: 'Thank you for rating us.' },
    ],
  });
  return {
    name,
    interactions: [
      {
        name: 'Ask',
        start: true,
        actions: [
          { type: 'setVariable', name: 'csat', mode: 'clear' },
          { type: 'buttons', text: QUESTION, buttons: [1, 2, 3, 4, 5].map(rate) },
        ],
      } as Interaction,
    ],
  };
}

/** The first interaction whose actions set `csat`, or null. */
function whereRatingIsAsked(draft: DraftFile): { behaviour: string; interaction: string } | null {
  for (const behaviour of draft.behaviours) {
    for (const interaction of behaviour.interactions) {
      if (/"(?:name|variable)":"csat"/i.test(JSON.stringify(interaction.actions ?? []))) return { behaviour: behaviour.name, interaction: interaction.name };
    }
  }
  return null;
}

/** "Rating", or "Rating 2"… when the bot already has a behaviour of that name (names are matched case-insensitively). */
function freeName(draft: DraftFile): string {
  const taken = new Set(draft.behaviours.map((b) => b.name.toLowerCase()));
  let name = 'Rating';
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `Rating ${n}`;
  return name;
}

/** Adds the rating behaviour to the draft, unless the draft already asks: what was done, for the card to say. */
async function addRatingQuestion(botId: string): Promise<{ added: boolean; behaviour: string; interaction: string }> {
  const path = `/bots/${encodeURIComponent(botId)}/draft`;
  // the version first: if the draft changes before it is read, the save below is refused, never lost
  const { Version } = await api.call<{ Version: number }>('GET', `${path}/problems`);
  const draft = await api.call<DraftFile>('GET', path);
  const asked = whereRatingIsAsked(draft);
  if (asked) return { added: false, ...asked };
  const name = freeName(draft);
  draft.behaviours.push(ratingBehaviour(name));
  await api.call('PUT', path, draft, { 'If-Match': `"${Version}"` });
  return { added: true, behaviour: name, interaction: 'Ask' };
}

/** Sets up the offer in `root` (inside the CSAT card's empty text) for the bot shown. */
export function offerRatingQuestion(root: HTMLElement, botId: string, data: BotAnalytics): void {
  const button = root.querySelector('button')!;
  const result = root.querySelector<HTMLElement>('.rating-result')!;
  button.hidden = false;
  button.disabled = false;
  button.textContent = `Add a rating question to ${data.BotName}`;
  result.replaceChildren();
  result.classList.remove('error');
  button.onclick = async () => {
    button.disabled = true;
    result.textContent = 'Adding…';
    try {
      const done = await addRatingQuestion(botId);
      const link = document.createElement('a');
      link.href = `/console/designer?bot=${encodeURIComponent(botId)}`;
      link.textContent = `Open ${done.behaviour} in the designer`;
      const words = done.added
        ? `Added to the draft: the behaviour "${done.behaviour}" asks "${QUESTION}" with buttons 1 to 5, and every answer is counted here. Next, lead conversations to it where they end (a "Go to" ${done.behaviour}), then publish. `
        : `The bot already asks for a rating in ${done.behaviour} › ${done.interaction} (it sets the variable csat); nobody answered in this period. `;
      result.replaceChildren(words, link);
      button.hidden = true;
      link.focus();
    } catch (error) {
      result.textContent = (error as Error).message;
      result.classList.add('error');
      button.disabled = false;
    }
  };
}
