// A console page that is its own TypeScript bundle (shared/page-bundle.ts): its HTML at `url` (the
// one page head and header around its body, page-html.ts), its stylesheet at `url`/app.css (the
// console pages' shared styles, then its own) and its script at `url`/app.js, read from one folder
// under ui/. The page is public HTML like the console's; what it shows comes from cookie routes
// that check roles.
import type { PageBundle } from '../../shared/page-bundle.js';
import type { App } from '../app.js';
import { pageHeaders } from './console-assets.js';
import { pageHtml, pageStyle } from './page-html.js';

export interface BundledPage {
  /** e.g. /console/knowledge */
  url: string;
  /** the page's folder under ui/, e.g. 'knowledge' */
  folder: string;
  /** its name in the title, e.g. 'Knowledge' */
  title: string;
  /** the stylesheet's file name in that folder */
  css: string;
  bundle: () => Promise<PageBundle>;
}

export function bundledPageRoutes(app: App, page: BundledPage): void {
  const html = pageHtml({ folder: page.folder, title: `${page.title} — Colloquy`, css: `${page.url}/app.css`, script: `${page.url}/app.js` });
  const style = pageStyle(page.folder, page.css);
  app.get(page.url, { schema: { hide: true } }, async (_request, reply) => pageHeaders(reply).send(html));
  app.get(`${page.url}/app.css`, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(style),
  );
  app.get(`${page.url}/app.js`, { schema: { hide: true } }, async (request, reply) => {
    const bundle = await page.bundle();
    reply.header('etag', bundle.etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === bundle.etag) return reply.status(304).send();
    return reply.type('text/javascript; charset=utf-8').send(bundle.code);
  });
}
