// Where the widget keeps the visitor's user id between visits.

/** localStorage may be unavailable (privacy modes, sandboxed frames): then nothing is kept. */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string | null): void {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // not kept: the next visit starts a new conversation
    }
  },
};
