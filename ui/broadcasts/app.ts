// The broadcasts page (/console/broadcasts, docs/broadcasts.md): a signed-in admin or designer
// picks a bot, writes a message (compose.ts) or picks a behaviour, sees how many conversations the
// audience holds as they choose it, and sends or schedules after saying yes to "Send to N
// conversations now?"; the status shown is then the broadcast's own, read back from the server
// until it ends. The list shows every broadcast's counts live; one can be cancelled. It reads the
// console API through the console's one client (ui/shared/api-client.ts); everything it writes into
// the page goes through textContent.

import { consoleApi, isSignedOut, signedIn } from '../shared/api-client';
import { accountBots, fillBotPicker } from '../shared/bot-picker';
import { drawConsoleNav } from '../shared/console-nav';
import { addButton, clearMessage, drawPreview, message, setBehaviours } from './compose';
import { type Broadcast, broadcastItem, when } from './list-item';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const REFRESH_MS = 2000;
/** how often the broadcast just created is read back while it runs */
const FOLLOW_MS = 700;
const COUNT_DELAY_MS = 300;
const CHANNEL_NAMES: Record<string, string> = {
  web: 'Website widget',
  custom: 'Your app (API)',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  slack: 'Slack',
  sms: 'SMS',
  chatwoot: 'Chatwoot',
  instagram: 'Instagram',
  teams: 'Microsoft Teams',
};

/** The page reads with GET and writes with POST: a call with a body is a POST. */
const call = <T>(path: string, body?: unknown): Promise<T> => consoleApi.call<T>(body === undefined ? 'GET' : 'POST', path, body);

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

const botId = () => encodeURIComponent($<HTMLSelectElement>('bot').value);

/** The audience the form describes (only the conditions filled in). */
function audience(): Record<string, unknown> {
  const tags = $<HTMLInputElement>('tags')
    .value.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const channels = [...document.querySelectorAll<HTMLInputElement>('input[name=channel]:checked')].map((c) => c.value);
  const active = Number($<HTMLInputElement>('active').value);
  return { ...(tags.length ? { Tags: { all: tags } } : {}), ...(channels.length ? { Channels: channels } : {}), ...(active > 0 ? { ActiveWithinDays: Math.floor(active) } : {}) };
}

/** A datetime-local value as ISO 8601 with this browser's offset, as the API wants. */
function withOffset(local: string): string {
  const date = new Date(local);
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/** Cancels a scheduled or running broadcast, then shows the list as it now is. */
const cancel = (b: Broadcast) =>
  void run(async () => {
    await call(`/bots/${botId()}/broadcasts/${encodeURIComponent(b.BroadcastId)}/cancel`, {});
    status(`${b.Name} cancelled.`);
    await refresh();
  });

async function refresh(): Promise<void> {
  if (!$<HTMLSelectElement>('bot').value) return;
  const { Result } = await call<{ Result: Broadcast[] }>(`/bots/${botId()}/broadcasts`);
  $('list').replaceChildren(...Result.map((b) => broadcastItem(b, cancel)));
  $('empty').hidden = Result.length > 0;
}

async function loadBot(): Promise<void> {
  drawConsoleNav($('console-nav'), 'broadcasts', { botId: $<HTMLSelectElement>('bot').value });
  const flow = await call<{ Nodes: Array<{ Kind: string; Name: string }> }>(`/bots/${botId()}/flow`).catch(() => ({ Nodes: [] }));
  const behaviours = flow.Nodes.filter((n) => n.Kind === 'behaviour').map((n) => n.Name);
  $('behaviour').replaceChildren(...behaviours.map((name) => Object.assign(document.createElement('option'), { value: name, textContent: name })));
  setBehaviours(behaviours);
  const { Result: channels } = await call<{ Result: string[] }>(`/bots/${botId()}/broadcast-channels`);
  $('channels').replaceChildren(
    Object.assign(document.createElement('span'), { className: 'group-label', textContent: 'Channels (none ticked: all)' }),
    ...channels.map((c) => {
      const label = document.createElement('label');
      label.append(Object.assign(document.createElement('input'), { type: 'checkbox', name: 'channel', value: c }), ` ${CHANNEL_NAMES[c] ?? c}`);
      return label;
    }),
  );
  $('work').hidden = false;
  countSoon();
  if (behaviours.length === 0) status('This bot has no published version yet: publish it to broadcast.', true);
  await refresh();
}

/** Runs an action, showing its failure in the status line (a signed-out operator gets the notice). */
async function run(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (isSignedOut(error)) {
      $('work').hidden = true;
      $('signed-out').hidden = false;
      status('');
    } else {
      status((error as Error).message, true);
    }
  }
}

/** The audience's size now (the preview API: nothing is created). */
async function audienceCount(): Promise<number> {
  return (await call<{ Count: number }>(`/bots/${botId()}/broadcasts/preview`, { Audience: audience() })).Count;
}

const conversations = (n: number) => `${n} conversation${n === 1 ? '' : 's'}`;

let countTimer: number | undefined;
let counting = 0;
/** Counts the audience a moment after the filters stop changing. */
function countSoon(): void {
  clearTimeout(countTimer);
  $('audience-count').textContent = 'counting…';
  const mine = ++counting;
  countTimer = window.setTimeout(
    () =>
      void run(async () => {
        const count = await audienceCount();
        // an older count that comes back late does not overwrite the newer one
        if (mine === counting) $('audience-count').textContent = conversations(count);
      }),
    COUNT_DELAY_MS,
  );
}

const sendsMessage = () => document.querySelector<HTMLInputElement>('input[name=what]:checked')?.value === 'message';

function showWhat(): void {
  $('message-part').hidden = !sendsMessage();
  $('behaviour-part').hidden = sendsMessage();
}

const redraw = () => drawPreview(message());

/** Asks the question; resolves true when the operator confirms. */
function confirmed(question: string, yes: string): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('confirm');
  $('confirm-question').textContent = question;
  $('confirm-ok').textContent = yes;
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      $('confirm-ok').onclick = null;
      $('confirm-cancel').onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $('confirm-ok').onclick = () => done(true);
    $('confirm-cancel').onclick = () => done(false);
    dialog.onclose = () => done(false);
    dialog.showModal();
  });
}

let following = 0;
/** Shows the created broadcast's own status, read back until it ends (or waits for its time). */
async function follow(id: string): Promise<void> {
  const mine = ++following;
  for (;;) {
    const b = await call<Broadcast>(`/bots/${botId()}/broadcasts/${encodeURIComponent(id)}`);
    if (mine !== following) return;
    const c = b.Counts;
    const progress = b.Run > 0 ? ` · ${c.Sent} of ${c.Audience} sent, ${c.Delivered} delivered${c.Failed ? `, ${c.Failed} failed` : ''}${c.Skipped ? `, ${c.Skipped} skipped` : ''}` : '';
    const next = b.Status === 'scheduled' && b.NextRunAt ? ` for ${when(b.NextRunAt)}` : '';
    status(`${b.Name}: ${b.Status}${next}${progress}`, b.Status === 'failed');
    const waiting = b.Status === 'scheduled' && b.NextRunAt !== null && new Date(b.NextRunAt).getTime() > Date.now() + FOLLOW_MS;
    if (b.Status === 'done' || b.Status === 'cancelled' || b.Status === 'failed' || waiting) return void (await refresh());
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
  }
}

$('create').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(async () => {
    const name = $<HTMLInputElement>('name').value.trim();
    if (!name) return (status('Give the broadcast a name.', true), $('name').focus());
    const written = sendsMessage() ? message() : null;
    if (written && written.Text.trim() === '') return (status('Write the message first.', true), $('text').focus());
    const what = written ? { Message: written } : { Behaviour: $<HTMLSelectElement>('behaviour').value };
    const at = $<HTMLInputElement>('at').value;
    const every = $<HTMLSelectElement>('repeat').value;
    const count = await audienceCount();
    $('audience-count').textContent = conversations(count);
    const question = at ? `Schedule for ${new Date(at).toLocaleString()} to ${conversations(count)}?` : `Send to ${conversations(count)} now?`;
    if (!(await confirmed(question, at ? 'Schedule' : 'Send now'))) return status('Nothing was sent.');
    const created = await call<Broadcast>(`/bots/${botId()}/broadcasts`, {
      Name: name,
      ...what,
      Audience: audience(),
      ...(at ? { At: withOffset(at) } : {}),
      ...(every ? { Repeat: { Every: every } } : {}),
    });
    $<HTMLInputElement>('name').value = '';
    if (sendsMessage()) clearMessage();
    redraw();
    await refresh();
    await follow(created.BroadcastId);
  });
});

for (const input of document.querySelectorAll<HTMLInputElement>('input[name=what]')) input.addEventListener('change', showWhat);
$('text').addEventListener('input', redraw);
$('add-button').addEventListener('click', () => addButton(redraw));
for (const id of ['tags', 'active']) $(id).addEventListener('input', countSoon);
$('channels').addEventListener('change', countSoon);
$('at').addEventListener('input', () => ($('submit').textContent = $<HTMLInputElement>('at').value ? 'Schedule…' : 'Send…'));
redraw();

$('bot').addEventListener('change', () => void run(loadBot));

drawConsoleNav($('console-nav'), 'broadcasts');

void run(async () => {
  status('Loading…');
  const me = await signedIn();
  drawConsoleNav($('console-nav'), 'broadcasts', { role: me.Role });
  $<HTMLElement>('bot').closest<HTMLElement>('.bot-field')!.hidden = me.Role === 'agent';
  if (me.Role === 'agent') return status(`Your role (${me.Role}) opens conversations only. Broadcasts are for designers and admins: ask an admin for the designer role.`, true);
  const bots = await accountBots();
  fillBotPicker($<HTMLSelectElement>('bot'), bots, new URLSearchParams(location.search).get('bot'));
  status(bots.length ? '' : 'The account has no bot yet.');
  if (bots.length) await loadBot();
  setInterval(() => void run(refresh), REFRESH_MS);
});
