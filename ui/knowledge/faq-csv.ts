// FAQ pairs from a CSV of question,answer (knowledge.md "Console"), pasted or uploaded on the
// Knowledge page. RFC 4180 quoting (fields in double quotes may hold the separator, line breaks
// and "" for a quote), a UTF-8 byte-order mark, CRLF or LF, `,` or `;` between fields (the one
// found outside quotes on the first line; spreadsheets in many locales write `;`), and an optional
// header row (question / answer). Parsed in the page: the server receives the pairs as JSON, so
// its own checks (faq-pairs.ts) stay the only rules. A scanner, one pass, no regular expression
// meets the text: linear whatever it holds. Pure: no DOM, so it is unit-tested in Node.

export interface CsvPair {
  Question: string;
  Answer: string;
}

/** What the page adds and what it says about each line it could not. */
export interface CsvResult {
  pairs: CsvPair[];
  problems: string[];
}

/** The same bounds the server keeps (src/knowledge/faq-pairs.ts FAQ_LIMITS). */
export const CSV_LIMITS = Object.freeze({ pairs: 1_000, questionChars: 1_000, answerChars: 10_000, bytes: 10 * 1024 * 1024 });

interface Row {
  line: number;
  cells: string[];
}

/** The CSV's pairs, at most `room` of them (the pairs the FAQ can still take). */
export function faqFromCsv(text: string, room: number = CSV_LIMITS.pairs): CsvResult {
  const problems: string[] = [];
  const pairs: CsvPair[] = [];
  const { rows, unclosed } = rowsOf(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  let skipped = 0;
  rows.forEach((row, index) => {
    const cells = trimEnd(row.cells.map((c) => c.trim()));
    if (cells.length === 0) return;
    if (index === 0 && isHeader(cells)) return;
    const where = `Line ${row.line}`;
    if (cells.length === 1) return problems.push(`${where}: a question needs its answer after a comma or a semicolon.`);
    if (cells.length > 2) return problems.push(`${where}: ${cells.length} columns; only question,answer are read (put an answer holding commas in double quotes).`);
    const [question, answer] = cells;
    if (question === '') return problems.push(`${where}: the question is empty.`);
    if (answer === '') return problems.push(`${where}: the answer is empty.`);
    if (question.length > CSV_LIMITS.questionChars) return problems.push(`${where}: the question has ${question.length} characters; at most ${CSV_LIMITS.questionChars}.`);
    if (answer.length > CSV_LIMITS.answerChars) return problems.push(`${where}: the answer has ${answer.length} characters; at most ${CSV_LIMITS.answerChars}.`);
    if (pairs.length >= room) return void skipped++;
    pairs.push({ Question: question, Answer: answer });
  });
  if (unclosed !== null) problems.push(`Line ${unclosed}: a double quote opens a field that never closes; the lines after it were not read.`);
  if (skipped > 0) problems.push(`${skipped} more ${skipped === 1 ? 'pair was' : 'pairs were'} not added: an FAQ holds at most ${CSV_LIMITS.pairs} questions.`);
  return { pairs, problems };
}

const isHeader = (cells: string[]) => cells.length === 2 && /^questions?$/i.test(cells[0]) && /^answers?$/i.test(cells[1]);

/** Empty cells at the end of a row (a trailing separator a spreadsheet wrote) are not columns. */
function trimEnd(cells: string[]): string[] {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end--;
  return cells.slice(0, end);
}

/** `,` or `;`: whichever comes more often outside quotes on the first line (`,` on a tie). */
function separatorOf(text: string): string {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** The rows with the line each starts on; `unclosed` is the line of a quote never closed. */
function rowsOf(text: string): { rows: Row[]; unclosed: number | null } {
  const separator = separatorOf(text);
  const rows: Row[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endRow = () => {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && cell.trim() === '') {
      // a quoted field: up to the next lone quote
      const opened = line;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) return { rows, unclosed: opened };
        const q = text[i];
        if (q === '"' && text[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (q === '"') {
          i++;
          break;
        } else if (q === '\r' && text[i + 1] === '\n') {
          i++; // a CRLF inside a field is one line break
        } else {
          if (q === '\n') line++;
          value += q;
          i++;
        }
      }
      cell = value;
      // anything between the closing quote and the separator is kept as written
      while (i < text.length && text[i] !== separator && text[i] !== '\n' && text[i] !== '\r') cell += text[i++];
      continue;
    }
    if (c === separator) {
      cells.push(cell);
      cell = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += c;
    i++;
  }
  if (cell !== '' || cells.length > 0) endRow();
  return { rows, unclosed: null };
}
