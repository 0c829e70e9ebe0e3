// The console's browser files (ui/console/): one HTML page used both by the console and by shared
// conversation URLs, and its script and style. Files are read once; only names in the folder are
// served, so no path from a request ever reaches the file system.
import fs from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { AppError } from '../../shared/errors.js';
import { consoleBundle } from '../../operators/page-bundle.js';
import { pageHtml } from './page-html.js';

const UI_DIR = new URL('../../../ui/console/', import.meta.url);
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

const assets = new Map<string, { type: string; body: Buffer | string }>();
for (const name of fs.existsSync(UI_DIR) ? fs.readdirSync(UI_DIR) : []) {
  const type = TYPES[name.slice(name.lastIndexOf('.'))];
  if (type && name !== 'body.html') assets.set(name, { type, body: fs.readFileSync(new URL(name, UI_DIR)) });
}
const template = pageHtml({ folder: 'console', title: 'Colloquy operator console', css: '/console/assets/console.css', script: '/console/assets/console.js', module: true });

// No inline script, no framing; transcript media may come from anywhere. no-referrer keeps a
// share URL's code from leaking to the hosts of images in the transcript.
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; media-src https: http:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page in console mode, or in one-conversation mode for a share code. */
export function consolePage(reply: FastifyReply, page: { mode: 'console' | 'share'; code?: string }): FastifyReply {
  const html = template.replaceAll('{{mode}}', page.mode).replaceAll('{{code}}', escapeHtml(page.code ?? ''));
  return pageHeaders(reply).send(html);
}

export function errorPage(reply: FastifyReply, error: AppError): FastifyReply {
  const title = error.code === 'SHARE_EXPIRED' ? 'This link has expired' : 'This link does not exist';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — Colloquy</title>
<link rel="stylesheet" href="/console/assets/console.css"></head>
<body><main class="notice" role="main"><h1>${title}</h1><p>${escapeHtml(error.message)}</p></main></body></html>`;
  return pageHeaders(reply).status(error.status).send(html);
}

export async function sendAsset(reply: FastifyReply, name: string): Promise<FastifyReply> {
  // The script is the bundle of console.ts and its imports; the other modules are inside it.
  const asset = name === 'console.js' ? { type: TYPES['.js']!, body: (await consoleBundle()).code } : name.endsWith('.js') ? undefined : assets.get(name);
  if (!asset) return reply.status(404).send({ Code: 'NOT_FOUND', Message: `No console asset ${name}.` });
  return reply.header('content-type', asset.type).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(asset.body);
}
