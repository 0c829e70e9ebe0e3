// The bot's sources as a list (kind, status with the reason of a failure, passages, size, last
// change) with their actions, and one source's passages. Everything written into the page goes
// through textContent.
import type { Passage, Source } from './api';

const KINDS: Record<Source['Kind'], string> = { text: 'Text', html: 'HTML', faq: 'FAQ', url: 'Web page', pdf: 'PDF', docx: 'DOCX' };
const STATUSES: Record<Source['Status'], string> = { ready: 'Ready', indexing: 'Indexing…', failed: 'Failed' };

export interface SourceActions {
  passages(source: Source): void;
  replace(source: Source): void;
  remove(source: Source): void;
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text: string, label: string, onClick: () => void, className = 'quiet'): HTMLButtonElement {
  const b = el('button', className, text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

/** One list item per source, newest first, as the server lists them. */
export function drawSources(list: HTMLElement, sources: Source[], actions: SourceActions): void {
  list.replaceChildren(
    ...sources.map((source) => {
      const item = el('li', `source status-${source.Status}`);
      item.dataset.sourceId = source.SourceId;
      const head = el('div', 'source-head');
      head.append(el('h3', 'source-name', source.Name), el('span', `badge badge-${source.Status}`, STATUSES[source.Status]));
      const facts = el('dl', 'facts');
      const fact = (term: string, value: string) => {
        const wrap = el('div', '');
        wrap.append(el('dt', '', term), el('dd', '', value));
        facts.append(wrap);
      };
      fact('Kind', KINDS[source.Kind]);
      fact('Passages', String(source.Chunks));
      fact('Size', size(source.Bytes));
      fact('Updated', when(source.UpdatedAt));
      item.append(head, facts);
      if (source.Url) {
        const link = el('a', 'source-url', source.Url);
        link.href = source.Url;
        link.rel = 'noopener noreferrer';
        link.target = '_blank';
        item.append(link);
      }
      if (source.Status === 'failed' && source.Error) item.append(el('p', 'error', `Not indexed: ${source.Error}`));
      const tools = el('div', 'tools');
      tools.append(
        button('Passages', `Passages of ${source.Name}`, () => actions.passages(source)),
        // an FAQ is edited pair by pair (faq-editor.ts); other kinds are sent again whole
        source.Kind === 'faq' ? button('Edit pairs', `Edit pairs of ${source.Name}`, () => actions.replace(source)) : button('Replace', `Replace ${source.Name}`, () => actions.replace(source)),
        button('Delete', `Delete ${source.Name}`, () => actions.remove(source), 'quiet danger'),
      );
      item.append(tools);
      return item;
    }),
  );
}

/** A source's passages in document order, each under its heading. */
export function drawPassages(list: HTMLElement, passages: Passage[]): void {
  list.replaceChildren(
    ...passages.map((p) => {
      const item = el('li', 'passage');
      // an FAQ passage's heading is its question, which its text starts with: shown once
      if (p.Heading && !p.Text.startsWith(p.Heading)) item.append(el('p', 'passage-heading', p.Heading));
      item.append(el('p', 'passage-text', p.Text));
      return item;
    }),
  );
}

export { el };
