// @ts-check
// What every part of the console page shares: its mode (the console, or one conversation opened
// by a share link), the calls to the server, the status line, and running an action so that a
// failure is reported and a lost session sends the operator back to signing in.

export const mode = document.body.dataset.mode === 'share' ? 'share' : 'console';
const code = document.body.dataset.code ?? '';
export const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

const OFFLINE = 'The server cannot be reached. Check your connection; the console tries again on your next action.';

export const api = {
  base: mode === 'share' ? `/share/${encodeURIComponent(code)}/api` : '/console/api',
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [payload]
   * @returns {Promise<any>}
   */
  async call(method, path, payload) {
    const init = /** @type {RequestInit} */ ({ method, headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (payload !== undefined) {
      init.headers = { ...init.headers, 'content-type': 'application/json' };
      init.body = JSON.stringify(payload);
    }
    // fetch rejects only when no answer came: say so in words, not as the browser's "Failed to fetch".
    const res = await fetch(this.base + path, init).catch(() => {
      throw Object.assign(new Error(OFFLINE), { status: 0, code: 'NETWORK' });
    });
    if ($('status').textContent === OFFLINE) say('');
    const data = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) throw Object.assign(new Error(data?.Message ?? `HTTP ${res.status}`), { status: res.status, code: data?.Code });
    return data;
  },
};

export function say(/** @type {string} */ text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** What a 401 does (console mode): session.js shows the sign-in form. */
let sessionLost = (/** @type {string} */ _message) => {};
export function onSessionLost(/** @type {(message: string) => void} */ handler) {
  sessionLost = handler;
}

/** Runs `work`, reporting failures; a lost session sends the operator back to the sign-in form. */
export async function attempt(/** @type {() => Promise<unknown>} */ work) {
  try {
    await work();
  } catch (error) {
    const e = /** @type {any} */ (error);
    if (mode === 'console' && e.status === 401) return sessionLost('Your session has ended; sign in again.');
    say(e.message, true);
  }
}

/** Calls `fn` once, `ms` after the last of a burst of calls. */
export function debounce(/** @type {() => void} */ fn, ms = 120) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
