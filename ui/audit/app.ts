// The Audit page (/console/audit, governance.md "Audit log"): the account's admins read who changed
// what and when, newest first, filtered by period, actor and action, a page at a time (the API's
// cursor), and download the same filters as CSV. Other roles get the server's 403 in words.
import { ApiError, apiClient, isSignedOut } from '../shared/api-client';
import { drawConsoleNav } from '../shared/console-nav';

interface Entry {
  At: string;
  Actor: string;
  ActorKind: string;
  Action: string;
  Target: string;
  Ip: string;
  Details: Record<string, unknown>;
}
interface Page {
  Result: Entry[];
  Next: string | null;
}
interface Me {
  Role: string;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const api = apiClient();
const ACTIONS = [
  'signin',
  'signin.failed',
  'signout',
  'bot.create',
  'bot.draft.save',
  'bot.publish',
  'bot.rollback',
  'bot.delete',
  'channel.connect',
  'channel.disconnect',
  'ai.set',
  'operator.invite',
  'operator.role',
  'operator.remove',
  'conversation.takeover',
  'conversation.handover',
  'conversation.ban',
  'conversation.forget',
  'export',
  'broadcast.create',
  'broadcast.cancel',
  'knowledge.add',
  'knowledge.remove',
  'retention',
];

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** The filters as the API's query string (the `to` date included: the API's `to` is excluded, so the day after). */
function query(): URLSearchParams {
  const q = new URLSearchParams();
  const from = $<HTMLInputElement>('from').value;
  const to = $<HTMLInputElement>('to').value;
  if (from) q.set('from', from);
  if (to) q.set('to', new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
  for (const name of ['actor', 'action']) {
    const value = $<HTMLInputElement>(name).value.trim();
    if (value) q.set(name, value);
  }
  return q;
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const details = (d: Record<string, unknown>) =>
  Object.entries(d)
    .filter(([name]) => name !== 'Method' && name !== 'Route')
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');

function row(e: Entry): HTMLTableRowElement {
  const time = el('time', { dateTime: e.At }, when(e.At));
  return el(
    'tr',
    {},
    el('td', {}, time),
    el('td', {}, e.Actor, el('span', { className: 'kind' }, e.ActorKind)),
    el('td', {}, el('code', {}, e.Action)),
    el('td', { className: 'target' }, e.Target || '—'),
    el('td', {}, e.Ip || '—'),
    el('td', { className: 'details' }, details(e.Details)),
  );
}

let next: string | null = null;

async function load(more = false): Promise<void> {
  const q = query();
  $<HTMLAnchorElement>('csv').href = `/console/api/audit.csv${q.size ? `?${q}` : ''}`;
  if (more && next) q.set('cursor', next);
  q.set('limit', '50');
  try {
    const page = await api.call<Page>('GET', `/audit?${q}`);
    if (!more) $('rows').replaceChildren();
    $('rows').append(...page.Result.map(row));
    next = page.Next;
    $('more').hidden = next === null;
    $('empty').hidden = $('rows').childElementCount > 0;
    status(`${$('rows').childElementCount} entr${$('rows').childElementCount === 1 ? 'y' : 'ies'} shown.`);
  } catch (e) {
    status(e instanceof ApiError && e.code === 'INVALID_REQUEST' ? `Check the filters: ${e.message}` : (e as Error).message, true);
  }
}

async function start(): Promise<void> {
  drawConsoleNav($('console-nav'), 'audit');
  let me: Me;
  try {
    me = await api.call<Me>('GET', '/me');
  } catch (e) {
    if (isSignedOut(e)) return void ($('notice').hidden = false);
    return status((e as Error).message, true);
  }
  drawConsoleNav($('console-nav'), 'audit', { role: me.Role });
  if (me.Role !== 'admin') {
    $('notice-title').textContent = 'For admins';
    $('notice-text').textContent = "Only the account's admins read the audit log.";
    $('notice').hidden = false;
    return;
  }
  $('actions').append(...ACTIONS.map((a) => el('option', { value: a })));
  $('workspace').hidden = false;
  $('filters').addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  $('more').addEventListener('click', () => void load(true));
  await load();
}

void start();
