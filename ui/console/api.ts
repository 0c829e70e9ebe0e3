// What every part of the console page shares: its mode (the console, or one conversation opened
// by a share link), the calls to the server, the status line, and running an action so that a
// failure is reported and a lost session sends the operator back to signing in.
import { apiClient, isSignedOut, OFFLINE_MESSAGE } from '../shared/api-client';
import type { ControlOf } from './controls';

export const mode = document.body.dataset.mode === 'share' ? 'share' : 'console';
const code = document.body.dataset.code ?? '';
// The page's elements by id, typed by what body.html makes each one (controls.ts).
export const $ = <K extends string>(id: K): ControlOf<K> => document.getElementById(id) as ControlOf<K>;

const base = mode === 'share' ? `/share/${encodeURIComponent(code)}/api` : '/console/api';
/** The server calls of the page (ui/shared/api-client.ts); an answer after an outage clears the line that said so. */
export const api = {
  base,
  ...apiClient({ base, onAnswer: () => $('status').textContent === OFFLINE_MESSAGE && say('') }),
};

export function say(text: string, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** What a 401 does (console mode): session.ts shows the sign-in form. */
let sessionLost = (_message: string) => {};
export function onSessionLost(handler: (message: string) => void) {
  sessionLost = handler;
}

/** Runs `work`, reporting failures; a lost session sends the operator back to the sign-in form. */
export async function attempt(work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (mode === 'console' && isSignedOut(error)) return sessionLost('Your session has ended; sign in again.');
    say((error as Error).message, true);
  }
}

/** Calls `fn` once, `ms` after the last of a burst of calls. */
export function debounce(fn: () => void, ms = 120) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
