// /docs: Swagger UI over /openapi.json with Colloquy's name, logo and header, laid out for a phone
// too, with a filter over the operations, and the guides (docs/*.md) as pages under /docs/guides
// (issue 27 item 13). Swagger UI's index page has no viewport tag and no place for a header, so
// both are put into its HTML as it is sent; its scripts keep their hashes in the page's CSP.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply } from 'fastify';
import { allGuides, guideNamed } from '../guides/catalogue.js';
import { AppError } from '../shared/errors.js';
import { bundleScript } from '../shared/page-bundle.js';
import type { App } from './app.js';
import { pageHeaders } from './routes/console-assets.js';

const UI_DIR = new URL('../../ui/docs/', import.meta.url);
const read = (name: string) => fs.readFileSync(new URL(name, UI_DIR), 'utf8');
const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const LOGO_PATH = '/docs/static/theme/colloquy-logo.svg';
const STYLE_PATH = '/docs/static/theme/colloquy.css';
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

const header = () => `<header class="colloquy-top" data-colloquy>
<a class="colloquy-brand" href="/docs" aria-label="Colloquy API documentation"><img src="${LOGO_PATH}" alt="" width="32" height="32">Colloquy <span>API</span></a>
<nav class="colloquy-nav" aria-label="Colloquy"><a href="/docs/guides">Guides</a><a href="/openapi.json">OpenAPI document</a><a href="/console">Console</a></nav>
</header>`;

const guideLinks = () => `<nav class="colloquy-guides" aria-labelledby="colloquy-guides-title" data-colloquy><h2 id="colloquy-guides-title">Guides</h2>
<ul>${allGuides()
  .map((g) => `<li><a href="/docs/guides/${g.name}">${escapeHtml(g.title)}</a></li>`)
  .join('')}</ul></nav>`;

function guidePage(reply: FastifyReply, title: string, body: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${VIEWPORT}<title>${escapeHtml(title)} — Colloquy guides</title>
<link rel="icon" type="image/svg+xml" href="${LOGO_PATH}"><link rel="stylesheet" href="${STYLE_PATH}"></head>
<body>${header()}<main class="guide">${body}</main></body></html>`;
  return pageHeaders(reply).send(html);
}

export async function registerApiDocs(app: App): Promise<void> {
  // Swagger UI's index page, as it is sent: a viewport for phones, Colloquy's header and the guides
  // (a hook of that page's route alone: no other request runs it).
  app.addHook('onRoute', (route) => {
    if (route.url !== '/docs' && route.url !== '/docs/') return;
    const withColloquy = async (_request: unknown, _reply: unknown, payload: unknown) =>
      typeof payload === 'string' ? payload.replace('<head>', `<head>\n${VIEWPORT}`).replace('<div id="swagger-ui"></div>', `${header()}\n${guideLinks()}\n<div id="swagger-ui"></div>`) : payload;
    route.onSend = [...[route.onSend ?? []].flat(), withColloquy];
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // deep links would put a link inside each operation's button (axe-core nested-interactive)
    uiConfig: { layout: 'BaseLayout', filter: true, deepLinking: false, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: {
      title: 'Colloquy API',
      css: [{ filename: 'colloquy.css', content: read('docs.css') }],
      js: [{ filename: 'colloquy.js', content: (await bundleScript(fileURLToPath(new URL('theme.ts', UI_DIR)))).code }],
      favicon: [{ filename: 'colloquy-logo.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(read('logo.svg')) }],
    },
    // The UI's own policy (hashes of its inline scripts), framed by no one; no forced https
    // upgrade, which would break a server reached over plain http.
    staticCSP: true,
    transformStaticCSP: (policy) => policy.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/docs/guides', { schema: { hide: true } }, async (_request, reply) =>
    guidePage(
      reply,
      'Guides',
      `<h1>Guides</h1><p>How Colloquy is built and run, beside the API reference at <a href="/docs">/docs</a>.</p>
<ul class="guide-list">${allGuides()
        .map((g) => `<li><a href="/docs/guides/${g.name}">${escapeHtml(g.title)}</a></li>`)
        .join('')}</ul>`,
    ),
  );
  app.get<{ Params: { name: string } }>('/docs/guides/:name', { schema: { hide: true } }, async (request, reply) => {
    const guide = guideNamed(request.params.name);
    if (!guide) throw new AppError('NOT_FOUND', 'There is no guide of that name.');
    return guidePage(reply, guide.title, guide.html);
  });
}
