// "Add a source" (and, for a chosen source, "Replace"): a file upload, pasted text or HTML, FAQ
// pairs or a web page's address. What the server would refuse for its size or type is said here
// before anything is sent (10 MiB, the file types of knowledge.md); anything else the server
// refuses is shown with its own message.
import { call, knowledgePath, type Source } from './api';

export const MAX_BYTES = 10 * 1024 * 1024;
const FILE_TYPES = /\.(txt|md|html|htm|pdf|docx)$/i;
type Kind = 'file' | 'text' | 'html' | 'faq' | 'url';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export interface AddFormHost {
  botId(): string;
  /** a source was added or replaced: list it again */
  changed(source: Source, replaced: boolean): void;
}

export class AddForm {
  private replacing: Source | null = null;
  /** FAQ rows made so far: each row's fields get ids of their own, even after removals */
  private faqRows = 0;

  constructor(private readonly host: AddFormHost) {
    for (const radio of this.radios()) radio.addEventListener('change', () => this.showKind());
    $('faq-add').addEventListener('click', () => this.addFaqRow(true));
    $('add-cancel').addEventListener('click', () => this.reset());
    $('add').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.addFaqRow(false);
    this.showKind();
  }

  /** Replace `source`: the form says so, keeps its name and kind, and PUTs. */
  replace(source: Source): void {
    this.replacing = source;
    $('add-title').textContent = `Replace “${source.Name}”`;
    $('add-submit').textContent = 'Replace source';
    $('add-cancel').hidden = false;
    $<HTMLInputElement>('name').value = source.Name;
    const kind: Kind = source.Kind === 'pdf' || source.Kind === 'docx' ? 'file' : source.Kind;
    this.radios().forEach((r) => (r.checked = r.value === kind));
    if (source.Url) $<HTMLInputElement>('url').value = source.Url;
    this.showKind();
    this.error('');
    $('add-title').focus();
  }

  /** Back to adding, the fields emptied. */
  reset(): void {
    this.replacing = null;
    $('add-title').textContent = 'Add a source';
    $('add-submit').textContent = 'Add source';
    $('add-cancel').hidden = true;
    $<HTMLFormElement>('add').reset();
    $('faq-rows').replaceChildren();
    this.faqRows = 0;
    this.addFaqRow(false);
    this.showKind();
    this.error('');
  }

  /** The replaced source is gone (deleted): stop replacing it. */
  forget(sourceId: string): void {
    if (this.replacing?.SourceId === sourceId) this.reset();
  }

  private radios(): HTMLInputElement[] {
    return [...document.querySelectorAll<HTMLInputElement>('input[name="kind"]')];
  }

  private kind(): Kind {
    return (this.radios().find((r) => r.checked)?.value ?? 'file') as Kind;
  }

  private showKind(): void {
    const kind = this.kind();
    for (const field of document.querySelectorAll<HTMLElement>('[data-kind]')) field.hidden = field.dataset.kind !== kind;
  }

  private addFaqRow(focus: boolean): void {
    const list = $('faq-rows');
    const n = ++this.faqRows;
    const row = document.createElement('li');
    row.className = 'faq-row';
    const question = labelled('input', `faq-q-${n}`, `Question ${n}`);
    const answer = labelled('textarea', `faq-a-${n}`, `Answer ${n}`);
    (answer.control as HTMLTextAreaElement).rows = 2;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'quiet';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', `Remove question ${n}`);
    remove.addEventListener('click', () => {
      row.remove();
      if (list.children.length === 0) this.addFaqRow(false);
      $('faq-add').focus();
    });
    row.append(question.wrap, answer.wrap, remove);
    list.append(row);
    if (focus) question.control.focus();
  }

  /** The request body, or the reason it cannot be sent. */
  private body(): FormData | Record<string, unknown> | string {
    const name = $<HTMLInputElement>('name').value.trim();
    const named = name ? { Name: name } : {};
    switch (this.kind()) {
      case 'file': {
        const file = $<HTMLInputElement>('file').files?.[0];
        if (!file) return 'Choose a file to upload.';
        if (!FILE_TYPES.test(file.name)) return `${file.name} is not a .txt, .md, .html, .pdf or .docx file.`;
        if (file.size > MAX_BYTES) return `${file.name} is ${mb(file.size)}; a source holds at most 10 MiB.`;
        if (file.size === 0) return `${file.name} is empty.`;
        const form = new FormData();
        if (name) form.append('Name', name);
        form.append('file', file, file.name);
        return form;
      }
      case 'text':
      case 'html': {
        const field = this.kind() === 'text' ? 'Text' : 'Html';
        const text = $<HTMLTextAreaElement>(this.kind()).value;
        if (!text.trim()) return `Write or paste the ${field === 'Text' ? 'text' : 'HTML'} first.`;
        if (!name) return 'Give the source a name.';
        const bytes = new TextEncoder().encode(text).length;
        if (bytes > MAX_BYTES) return `The text is ${mb(bytes)}; a source holds at most 10 MiB.`;
        return { ...named, [field]: text };
      }
      case 'faq': {
        const rows = [...document.querySelectorAll<HTMLLIElement>('.faq-row')].map((row) => {
          const [q, a] = row.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea');
          return { Question: q.value.trim(), Answer: a.value.trim() };
        });
        const filled = rows.filter((r) => r.Question || r.Answer);
        if (filled.length === 0) return 'Write at least one question and its answer.';
        if (filled.some((r) => !r.Question || !r.Answer)) return 'Each question needs its answer, and each answer its question.';
        if (!name) return 'Give the source a name.';
        return { ...named, Faq: filled };
      }
      case 'url': {
        const url = $<HTMLInputElement>('url').value.trim();
        if (!/^https?:\/\/./i.test(url)) return 'Give an address that starts with http:// or https://.';
        return { ...named, Url: url };
      }
    }
  }

  private async submit(): Promise<void> {
    const body = this.body();
    if (typeof body === 'string') return this.error(body);
    const replacing = this.replacing;
    const button = $<HTMLButtonElement>('add-submit');
    button.disabled = true;
    this.error('');
    try {
      const path = knowledgePath(this.host.botId(), replacing ? `/${encodeURIComponent(replacing.SourceId)}` : '');
      const source = await call<Source>(replacing ? 'PUT' : 'POST', path, body);
      this.reset();
      this.host.changed(source, replacing !== null);
    } catch (error) {
      this.error((error as Error).message);
    } finally {
      button.disabled = false;
    }
  }

  private error(text: string): void {
    $('add-error').textContent = text;
  }
}

function labelled(tag: 'input' | 'textarea', id: string, text: string): { wrap: HTMLElement; control: HTMLInputElement | HTMLTextAreaElement } {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = text;
  const control = document.createElement(tag);
  control.id = id;
  wrap.append(label, control);
  return { wrap, control };
}
