// The designer page (/console/designer) and its bundle's files (designer/page-bundle.ts). The page
// itself is public HTML like the console's; what it shows comes from the cookie routes of
// routes/designer.ts, which refuse operators whose role does not open the designer.
import { Type } from 'typebox';
import { designerBundle } from '../../designer/page-bundle.js';
import type { App } from '../app.js';
import { pageHeaders } from './console-assets.js';
import { pageHtml } from './page-html.js';

const PAGE = pageHtml({ folder: 'designer', title: 'Designer — Colloquy', css: '/console/designer/assets/main.css', script: '/console/designer/assets/main.js', module: true });
const AssetParams = Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}\\.(js|css)$' }) });

export function designerPageRoutes(app: App): void {
  app.get('/console/designer', { schema: { hide: true } }, async (_request, reply) => pageHeaders(reply).send(PAGE));
  app.get('/console/designer/assets/:name', { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const file = (await designerBundle()).get(request.params.name);
    if (!file) return reply.status(404).send({ Code: 'NOT_FOUND', Message: `No designer file ${request.params.name}.` });
    reply.header('etag', file.etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.type(file.type).send(file.body);
  });
}
