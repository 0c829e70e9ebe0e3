// The console's workspace around a conversation: who has it (assign to me, unassign), private
// notes between operators, canned responses (a manager dialog, a picker, and `/shortcut` in the
// composer), alerts when someone starts waiting for a person (sound, desktop notification), and
// "typing" sent to the user's widget while the operator writes. Console mode only.
import { $ } from './api';
import type { ApiClient } from '../shared/api-client';
import { el } from './render';
import type { Canned, ConsoleView, LiveEvent } from './types';

const TYPING_EVERY_MS = 3000;
const PREFS_KEY = 'colloquy:console:alerts';

/** What the panels need of the page (console.ts hands it over). */
export interface Host {
  call: ApiClient['call'];
  attempt: (work: () => Promise<unknown>) => Promise<void>;
  say: (text: string, isError?: boolean) => void;
  conversationPath: () => string | null;
  refresh: () => Promise<void>;
}

let host: Host;
let meId = '';
let canned: Canned[] = [];
/** this browser's alert choices */
const prefs: { sound: boolean; desktop: boolean } = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{"sound":false,"desktop":false}');

export function initWorkspace(h: Host) {
  host = h;
  $('assign-me').addEventListener('click', () => assignment('assign'));
  $('unassign').addEventListener('click', () => assignment('unassign'));
  $('note-form').addEventListener('submit', addNote);
  $('message-text').addEventListener('input', composerInput);
  $('message-text').addEventListener('keydown', composerKey);
  $('canned-picker').addEventListener('change', () => {
    const chosen = canned.find((c) => String(c.CannedId) === $('canned-picker').value);
    if (chosen) insertCanned(chosen);
    $('canned-picker').value = '';
  });
  $('canned-manage').addEventListener('click', openManager);
  $('canned-close').addEventListener('click', () => $('canned-dialog').close());
  $('canned-new').addEventListener('click', () => editCanned(null));
  $('canned-form').addEventListener('submit', saveCanned);
  $('alert-sound').checked = prefs.sound;
  $('alert-sound').addEventListener('change', () => savePrefs({ sound: $('alert-sound').checked }));
  $('alert-desktop').addEventListener('click', toggleDesktop);
  drawDesktopButton();
}

/** Signed in: remember who "me" is and load the account's canned responses. */
export async function startWorkspace(me: { OperatorId: string }) {
  meId = me.OperatorId;
  await loadCanned();
}

/** The open conversation's assignment and notes (from GET /conversations/:bot/:user). */
export function renderWorkspace(view: ConsoleView) {
  const owner = view.Conversation.AssignedTo;
  $('assignee').textContent = owner ? `Assigned to ${owner.OperatorId === meId ? 'you' : owner.Name}` : 'Unassigned';
  $('assign-me').disabled = owner?.OperatorId === meId;
  $('unassign').disabled = !owner;
  $('notes').hidden = false;
  $('notes-list').replaceChildren(
    ...view.Notes.map((n) => {
      const item = el('li', 'note');
      const time = el('time', 'note-time', new Date(n.At).toLocaleString());
      time.dateTime = n.At;
      const head = el('div', 'note-head');
      head.append(el('span', 'note-author', n.Author), time);
      item.append(head, el('p', 'note-text', n.Text));
      return item;
    }),
  );
  $('canned-picker').disabled = $('message-text').disabled || canned.length === 0;
}

function assignment(action: 'assign' | 'unassign') {
  const path = host.conversationPath();
  if (!path) return;
  void host.attempt(async () => {
    await host.call('POST', `${path}/${action}`, {});
    await host.refresh();
  });
}

function addNote(event: Event) {
  event.preventDefault();
  const path = host.conversationPath();
  const text = $('note-text').value.trim();
  if (!path || !text) return;
  void host.attempt(async () => {
    await host.call('POST', `${path}/notes`, { Text: text });
    $('note-text').value = '';
    await host.refresh();
  });
}

// ---- composer: typing indicator and canned responses ----

/** the last "typing" sent: per conversation, so switching conversations is not held back */
let lastTyping = { path: '', at: 0 };

function composerInput() {
  const path = host.conversationPath();
  const now = Date.now();
  // Throttled: one "typing" every few seconds keeps the widget's indicator up without a request per key.
  if (path && $('message-text').value.trim() !== '' && (path !== lastTyping.path || now - lastTyping.at > TYPING_EVERY_MS)) {
    lastTyping = { path, at: now };
    host.call('POST', `${path}/typing`, {}).catch(() => undefined);
  }
  suggest();
}

/** `/` then the start of a shortcut, alone in the composer: the matching canned responses. */
function matchesOfComposer() {
  const typed = /^\/([\p{L}\p{N}_-]*)$/u.exec($('message-text').value);
  return typed ? canned.filter((c) => c.Shortcut.startsWith(typed[1].toLowerCase())) : [];
}

function suggest() {
  const matches = matchesOfComposer();
  const list = $('canned-suggestions');
  list.hidden = matches.length === 0;
  list.replaceChildren(
    ...matches.map((c, i) => {
      const button = el('button', 'canned-suggestion');
      button.type = 'button';
      button.append(el('strong', '', `/${c.Shortcut}`), ' ', el('span', 'hint', c.Text));
      if (i === 0) button.setAttribute('aria-describedby', 'canned-hint');
      button.addEventListener('click', () => insertCanned(c));
      const item = el('li');
      item.append(button);
      return item;
    }),
  );
}

function composerKey(event: KeyboardEvent) {
  const matches = $('canned-suggestions').hidden ? [] : matchesOfComposer();
  if (matches.length > 0 && (event.key === 'Enter' || event.key === 'Tab')) {
    event.preventDefault();
    insertCanned(matches[0]);
  } else if (event.key === 'Escape') {
    $('canned-suggestions').hidden = true;
  }
}

function insertCanned(c: { Text: string }) {
  const box = $('message-text');
  if (box.disabled) return;
  box.value = /^\/\S*$/.test(box.value) || box.value.trim() === '' ? c.Text : `${box.value} ${c.Text}`;
  $('canned-suggestions').hidden = true;
  box.focus();
}

// ---- canned responses manager ----

async function loadCanned() {
  canned = (await host.call<{ CannedResponses: Canned[] }>('GET', '/canned')).CannedResponses;
  const picker = $('canned-picker');
  picker.replaceChildren(
    picker.options[0],
    ...canned.map((c) => Object.assign(document.createElement('option'), { value: String(c.CannedId), textContent: `/${c.Shortcut} — ${c.Text.slice(0, 60)}` })),
  );
  picker.disabled = $('message-text').disabled || canned.length === 0;
  $('canned-list').replaceChildren(
    ...canned.map((c) => {
      const item = el('li', 'canned-item');
      const edit = el('button', 'secondary', 'Edit');
      edit.type = 'button';
      edit.setAttribute('aria-label', `Edit /${c.Shortcut}`);
      edit.addEventListener('click', () => editCanned(c));
      const remove = el('button', 'danger', 'Delete');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Delete /${c.Shortcut}`);
      remove.addEventListener(
        'click',
        () =>
          void host.attempt(async () => {
            await host.call('DELETE', `/canned/${c.CannedId}`);
            await loadCanned();
          }),
      );
      item.append(el('strong', '', `/${c.Shortcut}`), el('span', 'canned-text', c.Text), edit, remove);
      return item;
    }),
  );
}

function openManager() {
  editCanned(null);
  $('canned-dialog').showModal();
  void host.attempt(loadCanned);
}

function editCanned(c: { CannedId: number; Shortcut: string; Text: string } | null) {
  $('canned-id').value = c ? String(c.CannedId) : '';
  $('canned-shortcut').value = c?.Shortcut ?? '';
  $('canned-text').value = c?.Text ?? '';
  $('canned-save').textContent = c ? 'Save' : 'Add';
  $('canned-error').textContent = '';
  $('canned-shortcut').focus();
}

async function saveCanned(event: Event) {
  event.preventDefault();
  const id = $('canned-id').value;
  const body = { Shortcut: $('canned-shortcut').value.trim(), Text: $('canned-text').value };
  try {
    await host.call(id ? 'PUT' : 'POST', id ? `/canned/${id}` : '/canned', body);
    editCanned(null);
    await loadCanned();
  } catch (error) {
    $('canned-error').textContent = (error as Error).message;
  }
}

// ---- alerts when someone starts waiting for a person ----

function savePrefs(change: Partial<typeof prefs>) {
  Object.assign(prefs, change);
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
}

const desktopOn = () => prefs.desktop && 'Notification' in window && Notification.permission === 'granted';

function drawDesktopButton() {
  const button = $('alert-desktop');
  button.hidden = !('Notification' in window);
  button.setAttribute('aria-pressed', String(desktopOn()));
  button.textContent = desktopOn() ? 'Desktop alerts on' : 'Desktop alerts';
}

/** Permission is asked only here, on the operator's click (browsers ignore unprompted requests). */
async function toggleDesktop() {
  if (desktopOn()) savePrefs({ desktop: false });
  else {
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission !== 'granted') host.say('Desktop alerts are blocked for this site in the browser settings.', true);
    savePrefs({ desktop: permission === 'granted' });
  }
  drawDesktopButton();
}

/** A short two-tone chime made on the spot (no sound file to serve). */
function chime() {
  const audio = new AudioContext();
  for (const [i, frequency] of [880, 660].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.18 + 0.16);
    tone.connect(gain).connect(audio.destination);
    tone.start(audio.currentTime + i * 0.18);
    tone.stop(audio.currentTime + i * 0.18 + 0.17);
  }
}

/** Every live event of the console passes here; a state change to 1 means someone now waits. */
export function alertOnEvent(event: LiveEvent) {
  if (event.Kind !== 'state' || event.State !== 1) return;
  if (prefs.sound) chime();
  if (desktopOn()) {
    const note = new Notification('Someone waits for a person', { body: `${event.UserId} · ${event.Channel}`, tag: `${event.BotId}/${event.UserId}` });
    note.onclick = () => window.focus();
  }
}
