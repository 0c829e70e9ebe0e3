// The Knowledge page (/console/knowledge, knowledge.md "Console"): a signed-in designer or admin
// picks a bot and sees its sources with their status, adds, replaces and deletes them, reads a
// source's passages, and asks a question to see the answer and the passages behind it. Agents
// are told their role does not open it (the server refuses them anyway, 403).
import { isSignedOut, signedIn, type Me } from '../shared/api-client';
import { accountBots, fillBotPicker, type BotChoice } from '../shared/bot-picker';
import { drawConsoleNav } from '../shared/console-nav';
import { AddForm } from './add-form';
import { deleteSource, listSources, readSource, type Source } from './api';
import { ask } from './ask';
import { drawPassages, drawSources, size } from './sources';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
/** how often the list is read again while a source is being indexed */
const POLL_MS = 2_000;

let botId = '';
let polling = 0;
let shown: Source | null = null;

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

function notice(title: string, text: string, link = false): void {
  $('workspace').hidden = true;
  $('notice').hidden = false;
  $('notice-title').textContent = title;
  if (!link) $('notice-text').textContent = text;
}

const form = new AddForm({
  botId: () => botId,
  changed: (source, replaced) => {
    status(
      `${replaced ? 'Replaced' : 'Added'} “${source.Name}”: ${source.Status === 'ready' ? `${source.Chunks} passages, ready.` : source.Status === 'indexing' ? 'indexing…' : `failed: ${source.Error}`}`,
    );
    if (shown?.SourceId === source.SourceId) void showPassages(source);
    void load();
  },
});

async function load(): Promise<void> {
  clearTimeout(polling);
  const wanted = botId;
  try {
    const sources = await listSources(botId);
    if (wanted !== botId) return;
    $('sources-empty').hidden = sources.length > 0;
    const bytes = sources.reduce((n, s) => n + s.Bytes, 0);
    $('totals').textContent = sources.length === 0 ? '' : `${sources.length} ${sources.length === 1 ? 'source' : 'sources'}, ${size(bytes)}`;
    drawSources($('sources'), sources, { passages: (s) => void showPassages(s, true), replace: (s) => void form.replace(s), remove: (s) => void remove(s) });
    if (sources.some((s) => s.Status === 'indexing')) polling = window.setTimeout(() => void load(), POLL_MS);
  } catch (error) {
    failed(error);
  }
}

async function showPassages(source: Source, focus = false): Promise<void> {
  try {
    const full = await readSource(botId, source.SourceId);
    shown = full;
    $('passages-card').hidden = false;
    $('passages-title').textContent = `Passages of “${full.Name}”`;
    $('passages-meta').textContent =
      full.Status === 'ready' ? `${full.Passages.length} in document order.` : full.Status === 'indexing' ? 'Still indexing: no passage is searched yet.' : `Not indexed: ${full.Error}`;
    drawPassages($('passages'), full.Passages);
    if (focus) $('passages-title').focus();
  } catch (error) {
    failed(error);
  }
}

function hidePassages(): void {
  shown = null;
  $('passages-card').hidden = true;
}

async function remove(source: Source): Promise<void> {
  if (!confirm(`Delete “${source.Name}” and its ${source.Chunks} passages? The bot stops answering from it at once.`)) return;
  try {
    await deleteSource(botId, source.SourceId);
    if (shown?.SourceId === source.SourceId) hidePassages();
    form.forget(source.SourceId);
    status(`Deleted “${source.Name}”.`);
    await load();
    $('add-title').focus();
  } catch (error) {
    failed(error);
  }
}

function failed(error: unknown): void {
  if (isSignedOut(error)) return notice('Sign in first', '', true);
  status((error as Error).message, true);
}

function choose(id: string): void {
  botId = id;
  history.replaceState(null, '', `?bot=${encodeURIComponent(id)}`);
  drawConsoleNav($('console-nav'), 'knowledge', { botId: id });
  hidePassages();
  form.reset();
  $('answer').replaceChildren();
  status('');
  void load();
}

async function start(): Promise<void> {
  drawConsoleNav($('console-nav'), 'knowledge');
  let me: Me;
  let bots: BotChoice[];
  try {
    me = await signedIn();
    drawConsoleNav($('console-nav'), 'knowledge', { role: me.Role });
    if (me.Role === 'agent') {
      return notice('Not for your role', `Your role (${me.Role}) opens conversations only. Knowledge is for designers and admins: ask an admin for the designer role.`);
    }
    bots = await accountBots();
  } catch (error) {
    if (isSignedOut(error)) return notice('Sign in first', '', true);
    return status((error as Error).message, true);
  }
  const select = $<HTMLSelectElement>('bot');
  // with no bot in the address, the first option (the first bot) stays chosen
  fillBotPicker(select, bots, new URLSearchParams(location.search).get('bot'));
  if (bots.length === 0) return status('This account has no bots yet.');
  $('workspace').hidden = false;
  select.addEventListener('change', () => choose(select.value));
  $('passages-close').addEventListener('click', () => {
    hidePassages();
    $('sources-title').focus();
  });
  $('ask').addEventListener('submit', (event) => {
    event.preventDefault();
    const question = $<HTMLInputElement>('question').value.trim();
    if (question) void ask(botId, question, $('answer'));
  });
  choose(select.value);
}

void start();
