// Links to one interaction of the bot on the page (`#step=<behaviour>/<interaction>`): the import
// report links the interactions to finish by hand. Following one selects the interaction in the
// designer, as a click on it in the outline does, and the hash is cleared so the same link can be
// followed again.
import { useEffect, useRef } from 'react';
import { formsCanShow, same, type BotFile, type Place } from './model';

const PREFIX = '#step=';

export const stepLink = (behaviour: string, interaction: string) => `${PREFIX}${encodeURIComponent(behaviour)}/${encodeURIComponent(interaction)}`;

/** The place a `#step=` hash names in `bot`, or null (another hash, or a name the bot lacks). */
export function placeOfLink(bot: BotFile, hash: string): Place | null {
  if (!hash.startsWith(PREFIX) || !formsCanShow(bot)) return null;
  const [behaviour = '', interaction = ''] = hash.slice(PREFIX.length).split('/');
  let names: [string, string];
  try {
    names = [decodeURIComponent(behaviour), decodeURIComponent(interaction)];
  } catch {
    return null; // a hash typed by hand that is not percent-encoded text
  }
  const b = bot.behaviours.findIndex((x) => same(x.name, names[0]));
  const i = b >= 0 ? bot.behaviours[b]!.interactions.findIndex((x) => same(x.name, names[1])) : -1;
  return i >= 0 ? { b, i } : null;
}

/** Calls `open` for each `#step=` link followed while the bot is shown. */
export function useStepLinks(bot: BotFile | null, open: (place: Place) => void) {
  const current = useRef({ bot, open });
  current.current = { bot, open };
  useEffect(() => {
    const follow = () => {
      const { bot, open } = current.current;
      const place = bot ? placeOfLink(bot, location.hash) : null;
      if (!place) return;
      history.replaceState(null, '', location.pathname + location.search);
      open(place);
      // the interaction followed to takes the focus, in the outline, once drawn
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`.outline [data-place="${place.b}/${place.i}"]`)?.focus());
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
}
