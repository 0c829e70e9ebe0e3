// The guides' markdown (docs/*.md) as HTML for /docs/guides: the part of markdown these files use
// (headings, paragraphs, lists, fenced code, tables, quotes, `code`, **bold**, *emphasis*, links).
// Every text is HTML-escaped before any markup is added, and a link keeps only an http(s) address
// or a path on this server; a link to another guide ("limits.md") points at its page.

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Where a link of a guide goes on this server: another guide's page, or the address itself. */
function hrefOf(raw: string): string | null {
  const guide = /^(?:\.\/|docs\/|\.\.\/docs\/)?([a-z0-9-]+)\.md(#[\w-]*)?$/i.exec(raw);
  if (guide) return `/docs/guides/${guide[1].toLowerCase()}${guide[2] ?? ''}`;
  if (/^https?:\/\//i.test(raw) || raw.startsWith('/') || raw.startsWith('#')) return raw;
  return null;
}

/** Inline markup of one escaped line: code spans first, so nothing inside them is read as markup. */
export function inline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((piece) => {
      if (/^`[^`]+`$/.test(piece)) return `<code>${escapeHtml(piece.slice(1, -1))}</code>`;
      return escapeHtml(piece)
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) => {
          const href = hrefOf(url.replaceAll('&amp;', '&'));
          return href === null ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
        })
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
    })
    .join('');
}

const slugOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');

export function markdownToHtml(markdown: string): string {
  const lines = markdown.replaceAll('\r\n', '\n').split('\n');
  const out: string[] = [];
  let at = 0;
  const isBlockStart = (line: string) => /^(#{1,6} |```|\s*[-*] |\s*\d+\. |\||> )/.test(line) || line.trim() === '';
  while (at < lines.length) {
    const line = lines[at];
    if (line.trim() === '') {
      at++;
    } else if (line.startsWith('```')) {
      const code: string[] = [];
      for (at++; at < lines.length && !lines[at].startsWith('```'); at++) code.push(lines[at]);
      at++;
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const level = line.indexOf(' ');
      const text = line.slice(level + 1).trim();
      out.push(`<h${level} id="${slugOf(text)}">${inline(text)}</h${level}>`);
      at++;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; at < lines.length && lines[at].startsWith('|'); at++) {
        if (/^\|[\s:|-]+\|?\s*$/.test(lines[at])) continue; // the |---| line under the header
        rows.push(
          lines[at]
            .replace(/^\||\|\s*$/g, '')
            .split(/(?<!\\)\|/)
            .map((c) => c.trim().replaceAll('\\|', '|')),
        );
      }
      const [head, ...body] = rows;
      out.push(
        `<div class="table"><table><thead><tr>${head.map((c) => `<th scope="col">${inline(c)}</th>`).join('')}</tr></thead>` +
          `<tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`,
      );
    } else if (/^\s*([-*]|\d+\.) /.test(line)) {
      const ordered = /^\s*\d+\. /.test(line);
      const items: string[] = [];
      for (; at < lines.length && lines[at].trim() !== ''; at++) {
        if (/^\s*([-*]|\d+\.) /.test(lines[at])) items.push(lines[at].replace(/^\s*([-*]|\d+\.) /, ''));
        else items[items.length - 1] += ` ${lines[at].trim()}`; // a wrapped item goes on
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((i) => `<li>${inline(i)}</li>`).join('')}</${tag}>`);
    } else if (line.startsWith('> ')) {
      const quote: string[] = [];
      for (; at < lines.length && lines[at].startsWith('>'); at++) quote.push(lines[at].replace(/^> ?/, ''));
      out.push(`<blockquote><p>${inline(quote.join(' '))}</p></blockquote>`);
    } else {
      const paragraph: string[] = [line.trim()];
      for (at++; at < lines.length && !isBlockStart(lines[at]); at++) paragraph.push(lines[at].trim());
      out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}
