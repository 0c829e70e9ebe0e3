// The FAQ pairs of the "Add a source" form (knowledge.md "Console", issue 37 item 7): an FAQ is
// edited pair by pair. Each pair has its question and answer, Move up / Move down (the focus stays
// on the moved pair's button, so a keyboard user can go on moving it) and Delete (asks first when
// the pair holds text); "Add a question" adds one at the end. A CSV of question,answer, pasted or
// uploaded, adds its pairs after the others, with one message per line it could not add
// (faq-csv.ts). Editing an existing FAQ loads its stored pairs (GET …/{SourceId} `Faq`).
import { CSV_LIMITS, faqFromCsv, type CsvPair } from './faq-csv';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export class FaqEditor {
  /** rows made so far: each row's fields get ids of their own, even after moves and removals */
  private made = 0;
  private readonly list = $('faq-rows');

  constructor() {
    $('faq-add').addEventListener('click', () => this.add({ Question: '', Answer: '' }, true));
    $('faq-csv-add').addEventListener('click', () => this.addCsv($<HTMLTextAreaElement>('faq-csv').value, 'pasted'));
    $<HTMLInputElement>('faq-csv-file').addEventListener('change', () => void this.addCsvFile());
    this.load([]);
  }

  /** The pairs shown become `pairs` (one empty pair when there are none). */
  load(pairs: CsvPair[]): void {
    this.list.replaceChildren();
    this.made = 0;
    for (const pair of pairs) this.add(pair, false);
    if (pairs.length === 0) this.add({ Question: '', Answer: '' }, false);
    this.csvMessages('', []);
    $<HTMLTextAreaElement>('faq-csv').value = '';
    $<HTMLInputElement>('faq-csv-file').value = '';
  }

  /** The pairs to send (fully blank rows left out), or why they cannot be sent. */
  pairs(): CsvPair[] | string {
    const rows = this.rows().map((row) => {
      const [q, a] = row.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea');
      return { Question: q.value.trim(), Answer: a.value.trim() };
    });
    const half = rows.findIndex((r) => (r.Question === '') !== (r.Answer === ''));
    if (half >= 0) return rows[half].Question === '' ? `Question ${half + 1} is empty: write it, or delete the pair.` : `Question ${half + 1} has no answer.`;
    const filled = rows.filter((r) => r.Question !== '');
    if (filled.length === 0) return 'Write at least one question and its answer.';
    if (filled.length > CSV_LIMITS.pairs) return `An FAQ holds at most ${CSV_LIMITS.pairs} questions; this one has ${filled.length}.`;
    return filled;
  }

  private rows(): HTMLLIElement[] {
    return [...this.list.children] as HTMLLIElement[];
  }

  private add(pair: CsvPair, focus: boolean): void {
    const n = ++this.made;
    const row = document.createElement('li');
    row.className = 'faq-row';
    const question = labelled('input', `faq-q-${n}`, pair.Question);
    const answer = labelled('textarea', `faq-a-${n}`, pair.Answer);
    (answer.control as HTMLTextAreaElement).rows = 2;
    question.control.maxLength = CSV_LIMITS.questionChars;
    answer.control.maxLength = CSV_LIMITS.answerChars;
    const tools = document.createElement('div');
    tools.className = 'tools';
    tools.append(
      tool('Move up', 'up', () => this.move(row, -1)),
      tool('Move down', 'down', () => this.move(row, 1)),
      tool('Delete', 'delete', () => this.remove(row), 'quiet danger'),
    );
    row.append(question.wrap, answer.wrap, tools);
    this.list.append(row);
    this.renumber();
    if (focus) question.control.focus();
  }

  private move(row: HTMLLIElement, by: -1 | 1): void {
    const rows = this.rows();
    const to = rows.indexOf(row) + by;
    if (to < 0 || to >= rows.length) return;
    if (by < 0) rows[to].before(row);
    else rows[to].after(row);
    this.renumber();
    // at the top (or bottom) its button is off: the focus goes to the other one, never lost
    const same = row.querySelector<HTMLButtonElement>(`[data-tool="${by < 0 ? 'up' : 'down'}"]`)!;
    (same.disabled ? row.querySelector<HTMLButtonElement>(`[data-tool="${by < 0 ? 'down' : 'up'}"]`)! : same).focus();
  }

  private remove(row: HTMLLIElement): void {
    const rows = this.rows();
    const index = rows.indexOf(row);
    const question = row.querySelector('input')!.value.trim();
    const text = question + row.querySelector('textarea')!.value.trim();
    if (text !== '' && !confirm(`Delete question ${index + 1}${question ? ` “${question}”` : ''} and its answer?`)) return;
    row.remove();
    if (this.list.children.length === 0) this.add({ Question: '', Answer: '' }, false);
    this.renumber();
    const next = this.rows()[Math.min(index, this.list.children.length - 1)];
    (text === '' && this.list.children.length === 1 ? $('faq-add') : next.querySelector('input')!).focus();
  }

  /** Labels and button names follow the pairs' order: "Question 2", "Move up question 2". */
  private renumber(): void {
    this.rows().forEach((row, i) => {
      const n = i + 1;
      const [q, a] = row.querySelectorAll('label');
      q.textContent = `Question ${n}`;
      a.textContent = `Answer ${n}`;
      const named = (tool: string, label: string, disabled = false) => {
        const button = row.querySelector<HTMLButtonElement>(`[data-tool="${tool}"]`)!;
        button.setAttribute('aria-label', label);
        button.disabled = disabled;
      };
      named('up', `Move up question ${n}`, i === 0);
      named('down', `Move down question ${n}`, i === this.list.children.length - 1);
      named('delete', `Delete question ${n}`);
    });
  }

  private async addCsvFile(): Promise<void> {
    const input = $<HTMLInputElement>('faq-csv-file');
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > CSV_LIMITS.bytes) return this.csvMessages('', [`${file.name} is over 10 MiB; an FAQ holds at most 10 MiB.`]);
    this.addCsv(await file.text(), file.name);
    input.value = '';
  }

  private addCsv(text: string, from: string): void {
    if (text.trim() === '') return this.csvMessages('', ['Paste the CSV first: one question,answer a line.']);
    if (text.length > CSV_LIMITS.bytes) return this.csvMessages('', ['The CSV is over 10 MiB; an FAQ holds at most 10 MiB.']);
    // blank rows are replaced, not kept before the new pairs
    for (const row of this.rows()) if (row.querySelector('input')!.value.trim() === '' && row.querySelector('textarea')!.value.trim() === '') row.remove();
    const { pairs, problems } = faqFromCsv(text, CSV_LIMITS.pairs - this.list.children.length);
    for (const pair of pairs) this.add(pair, false);
    if (this.list.children.length === 0) this.add({ Question: '', Answer: '' }, false);
    if (from === 'pasted' && pairs.length > 0) $<HTMLTextAreaElement>('faq-csv').value = '';
    const added = `${pairs.length} ${pairs.length === 1 ? 'pair' : 'pairs'} added from ${from === 'pasted' ? 'the pasted CSV' : from}${problems.length > 0 ? `; ${problems.length} ${problems.length === 1 ? 'line was' : 'lines were'} not:` : '.'}`;
    this.csvMessages(added, problems);
  }

  private csvMessages(summary: string, problems: string[]): void {
    $('faq-csv-status').textContent = summary;
    $('faq-csv-problems').replaceChildren(...problems.map((p) => Object.assign(document.createElement('li'), { textContent: p })));
  }
}

function labelled(tag: 'input' | 'textarea', id: string, value: string): { wrap: HTMLElement; control: HTMLInputElement | HTMLTextAreaElement } {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const label = document.createElement('label');
  label.htmlFor = id;
  const control = document.createElement(tag);
  control.id = id;
  control.value = value;
  wrap.append(label, control);
  return { wrap, control };
}

function tool(text: string, name: string, onClick: () => void, className = 'quiet'): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = className;
  button.textContent = text;
  button.dataset.tool = name;
  button.addEventListener('click', onClick);
  return button;
}
