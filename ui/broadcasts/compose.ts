// The broadcasts page's "what it sends" part (docs/broadcasts.md "A message of its own"): the
// message editor (a text and up to MAX_BUTTONS buttons, each starting a behaviour of the live bot
// or opening a link) and its preview drawn as the widget shows a text with buttons. Everything
// written into the page goes through textContent.

export const MAX_BUTTONS = 10;

export interface MessageButton {
  Title: string;
  Behaviour?: string;
  Url?: string;
}
export interface Message {
  Text: string;
  Buttons?: MessageButton[];
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const make = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}): HTMLElementTagNameMap[K] => Object.assign(document.createElement(tag), props);

let behaviourNames: string[] = [];
let counter = 0;

/** The behaviours of the live bot a button may start (a new bot is loaded). */
export function setBehaviours(names: string[]): void {
  behaviourNames = names;
  for (const select of document.querySelectorAll<HTMLSelectElement>('.button-behaviour')) fillBehaviours(select);
}

function fillBehaviours(select: HTMLSelectElement): void {
  const kept = select.value;
  select.replaceChildren(...behaviourNames.map((name) => make('option', { value: name, textContent: name })));
  if (behaviourNames.includes(kept)) select.value = kept;
}

/** Adds a button row to the editor and focuses its title. */
export function addButton(onChange: () => void): void {
  const rows = $('buttons');
  if (rows.children.length >= MAX_BUTTONS) return;
  const n = ++counter;
  const row = make('li', { className: 'button-row' });
  const title = make('input', { id: `button-title-${n}`, className: 'button-title', required: true, maxLength: 100, placeholder: 'Tell me more' });
  const kind = make('select', { id: `button-kind-${n}`, className: 'button-kind' });
  kind.append(make('option', { value: 'behaviour', textContent: 'Starts a behaviour' }), make('option', { value: 'url', textContent: 'Opens a link' }));
  const behaviour = make('select', { id: `button-behaviour-${n}`, className: 'button-behaviour' });
  fillBehaviours(behaviour);
  const url = make('input', { id: `button-url-${n}`, className: 'button-url', type: 'url', maxLength: 2048, placeholder: 'https://…', hidden: true });
  const remove = make('button', { type: 'button', className: 'secondary', textContent: 'Remove' });
  remove.setAttribute('aria-label', `Remove button ${n}`);
  const field = (label: string, control: HTMLElement, extra = '') => {
    const wrap = make('div', { className: `field ${extra}` });
    wrap.append(make('label', { htmlFor: control.id, textContent: label }), control);
    return wrap;
  };
  const behaviourField = field('Behaviour it starts', behaviour, 'when-behaviour');
  const urlField = field('Link it opens', url, 'when-url');
  urlField.hidden = true;
  kind.addEventListener('change', () => {
    behaviourField.hidden = kind.value !== 'behaviour';
    urlField.hidden = kind.value !== 'url';
    url.hidden = urlField.hidden;
    url.required = kind.value === 'url';
    onChange();
  });
  remove.addEventListener('click', () => {
    row.remove();
    $('add-button').hidden = false;
    $('add-button').focus();
    onChange();
  });
  for (const control of [title, behaviour, url]) control.addEventListener('input', onChange);
  behaviour.addEventListener('change', onChange);
  row.append(field(`Button ${n} title`, title), field('What it does', kind), behaviourField, urlField, remove);
  rows.append(row);
  $('add-button').hidden = rows.children.length >= MAX_BUTTONS;
  title.focus();
  onChange();
}

/** The message the editor holds (buttons without a title are left out). */
export function message(): Message {
  const buttons: MessageButton[] = [];
  for (const row of document.querySelectorAll<HTMLElement>('.button-row')) {
    const Title = row.querySelector<HTMLInputElement>('.button-title')!.value.trim();
    if (!Title) continue;
    const kind = row.querySelector<HTMLSelectElement>('.button-kind')!.value;
    buttons.push(
      kind === 'url' ? { Title, Url: row.querySelector<HTMLInputElement>('.button-url')!.value.trim() } : { Title, Behaviour: row.querySelector<HTMLSelectElement>('.button-behaviour')!.value },
    );
  }
  return { Text: $<HTMLTextAreaElement>('text').value, ...(buttons.length ? { Buttons: buttons } : {}) };
}

/** Empties the editor after a broadcast was sent. */
export function clearMessage(): void {
  $<HTMLTextAreaElement>('text').value = '';
  $('buttons').replaceChildren();
  $('add-button').hidden = false;
}

/** A {{variable|default}} as a visitor without that variable would read it; without a default, its name in brackets. */
const sample = (text: string) => text.replace(/\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g, (_whole, name: string, fallback?: string) => (fallback !== undefined ? fallback.trim() : `[${name.trim()}]`));

/** Draws the message as the widget shows it: a bot bubble with its buttons and links under it. */
export function drawPreview(m: Message): void {
  const out = $('message-preview');
  if (m.Text.trim() === '') {
    out.replaceChildren(make('p', { className: 'hint', textContent: 'Write the message to see it here.' }));
    return;
  }
  const bubble = make('div', { className: 'bubble' });
  bubble.append(make('p', { textContent: sample(m.Text) }));
  const buttons = make('div', { className: 'bubble-buttons' });
  for (const b of m.Buttons ?? []) {
    const chip = make('span', { className: b.Url !== undefined ? 'chip link' : 'chip', textContent: b.Url !== undefined ? `${sample(b.Title)} ↗` : sample(b.Title) });
    buttons.append(chip);
  }
  out.replaceChildren(bubble, ...(m.Buttons?.length ? [buttons] : []));
}
