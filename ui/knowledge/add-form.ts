// "Add a source" (and, for a chosen source, "Replace", or "Edit" for an FAQ, which opens with its
// stored pairs: faq-editor.ts): a file upload, pasted text or HTML, FAQ pairs or a web page's address. What the server would refuse for its size or type is said here
// before anything is sent (10 MiB, the file types of knowledge.md); anything else the server
// refuses is shown with its own message.
import { readSource, saveSource, type FaqPair, type Source, type SourceBody } from './api';
import { FaqEditor } from './faq-editor';

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
  private readonly faq = new FaqEditor();

  constructor(private readonly host: AddFormHost) {
    for (const radio of this.radios()) radio.addEventListener('change', () => this.showKind());
    $('add-cancel').addEventListener('click', () => this.reset());
    $('add').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.showKind();
  }

  /** Replace `source`: the form says so, keeps its name and kind, and PUTs; an FAQ opens with its pairs. */
  async replace(source: Source): Promise<void> {
    let pairs: FaqPair[] = [];
    if (source.Kind === 'faq') {
      try {
        pairs = (await readSource(this.host.botId(), source.SourceId)).Faq ?? [];
      } catch (error) {
        return this.error((error as Error).message);
      }
    }
    this.replacing = source;
    const faq = source.Kind === 'faq';
    $('add-title').textContent = faq ? `Edit “${source.Name}”` : `Replace “${source.Name}”`;
    $('add-submit').textContent = faq ? 'Save pairs' : 'Replace source';
    this.faq.load(pairs);
    $('add-cancel').textContent = faq ? 'Cancel editing' : 'Cancel replacing';
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
    this.faq.load([]);
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

  /** The request body, or the reason it cannot be sent. */
  private body(): SourceBody | string {
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
        const pairs = this.faq.pairs();
        if (typeof pairs === 'string') return pairs;
        if (!name) return 'Give the source a name.';
        return { ...named, Faq: pairs };
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
      const source = await saveSource(this.host.botId(), body, replacing?.SourceId ?? null);
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
