// The Knowledge page (/console/knowledge, knowledge.md "Console"): a signed-in designer or admin
// picks a bot and sees its sources with their status, adds, replaces and deletes them, reads a
// source's passages, and asks a question to see the answer and the passages behind it. Agents
// are told their role does not open it (the server refuses them anyway, 403).
import { drawConsoleNav } from '../shared/console-nav';
import { AddForm } from './add-form';
import { ApiError, call, knowledgePath, type BotChoice, type Me, type Passage, type Source } from './api';
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
    status(`${replaced ? 'Replaced' : 'Added'} “${source.Name}”: ${source.Status === 'ready' ? `${source.Chunks} passages, ready.` : source.Status === 'indexing' ? 'indexing…' : `failed: ${source.Error}`}`);
    if (shown?.SourceId === source.SourceId) void showPassages(source);
    void load();
  },
});

async function load(): Promise<void> {
  clearTimeout(polling);
  const wanted = botId;
  try {
    const { Result } = await call<{ Result: Source[] }>('GET', knowledgePath(botId));
    if (wanted !== botId) return;
    $('sources-empty').hidden = Result.length > 0;
    const bytes = Result.reduce((n, s) => n + s.Bytes, 0);
    $('totals').textContent = Result.length === 0 ? '' : `${Result.length} ${Result.length === 1 ? 'source' : 'sources'}, ${size(bytes)}`;
    drawSources($('sources'), Result, { passages: (s) => void showPassages(s, true), replace: (s) => void form.replace(s), remove: (s) => void remove(s) });
    if (Result.some((s) => s.Status === 'indexing')) polling = window.setTimeout(() => void load(), POLL_MS);
  } catch (error) {
    failed(error);
  }
}

async function showPassages(source: Source, focus = false): Promise<void> {
  try {
    const full = await call<Source & { Passages: Passage[] }>('GET', knowledgePath(botId, `/${encodeURIComponent(source.SourceId)}`));
    shown = full;
    $('passages-card').hidden = false;
    $('passages-title').textContent = `Passages of “${full.Name}”`;
    $('passages-meta').textContent = full.Status === 'ready' ? `${full.Passages.length} in document order.` : full.Status === 'indexing' ? 'Still indexing: no passage is searched yet.' : `Not indexed: ${full.Error}`;
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
    await call('DELETE', knowledgePath(botId, `/${encodeURIComponent(source.SourceId)}`));
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
  if (error instanceof ApiError && error.status === 401) return notice('Sign in first', '', true);
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
    me = await call<Me>('GET', '/me');
    drawConsoleNav($('console-nav'), 'knowledge', { role: me.Role });
    if (me.Role === 'agent') {
      return notice('Not for your role', `Your role (${me.Role}) opens conversations only. Knowledge is for designers and admins: ask an admin for the designer role.`);
    }
    bots = (await call<{ Result: BotChoice[] }>('GET', '/bots')).Result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return notice('Sign in first', '', true);
    return status((error as Error).message, true);
  }
  const select = $<HTMLSelectElement>('bot');
  for (const bot of bots) {
    const option = document.createElement('option');
    option.value = bot.BotId;
    option.textContent = bot.Published ? bot.Name : `${bot.Name} (not published)`;
    select.append(option);
  }
  if (bots.length === 0) return status('This account has no bots yet.');
  $('workspace').hidden = false;
  const wanted = new URLSearchParams(location.search).get('bot');
  select.value = wanted && bots.some((b) => b.BotId === wanted) ? wanted : bots[0].BotId;
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
