// Every console page's HTML, made once at start: the one head (ui/shared/page.html: charset,
// viewport, no referrer, the page's title, its stylesheet and its script from 'self') around the
// page's own body (ui/<folder>/body.html), and, where that body says {{console-header}}, the one
// header of the pages whose links console-nav.ts draws (ui/shared/console-header.html). The
// conversations page and the designer draw their own headers (the console's has its menus; the
// designer's is React's). Those pages' stylesheets start the same way too: `pageStyle`.
import fs from 'node:fs';

const UI_DIR = new URL('../../../ui/', import.meta.url);
const read = (path: string) => (fs.existsSync(new URL(path, UI_DIR)) ? fs.readFileSync(new URL(path, UI_DIR), 'utf8') : '');

export interface PageHtml {
  /** the page's folder under ui/, e.g. 'knowledge' */
  folder: string;
  /** the <title>, e.g. 'Knowledge — Colloquy' */
  title: string;
  /** the stylesheet's URL */
  css: string;
  /** the script's URL */
  script: string;
  /** an ES module (its chunks import each other) rather than a deferred classic script */
  module?: boolean;
}

/** The stylesheet of a page with the console header: what those pages share (ui/shared/console-page.css), then the page's own `css` file. */
export const pageStyle = (folder: string, css: string): string => read('shared/console-page.css') + read(`${folder}/${css}`);

/** The page's whole HTML (the names come from our own code, never from a request). */
export function pageHtml(page: PageHtml): string {
  const header = read('shared/console-header.html').trimEnd().replace('{{subtitle}}', page.folder);
  const body = read(`${page.folder}/body.html`)
    .trimEnd()
    .replace('{{console-header}}', () => header);
  const fields: Record<string, string> = {
    title: page.title,
    css: page.css,
    script: `${page.module ? 'type="module"' : 'defer'} src="${page.script}"`,
    body,
  };
  return read('shared/page.html').replace(/\{\{(title|css|script|body)\}\}/g, (_whole, name: string) => fields[name]!);
}
