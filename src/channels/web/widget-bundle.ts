// The widget script served at /widget.js: ui/widget bundled into one minified ES2019 file
// (shared/page-bundle.ts), built on first request and kept in memory. Building at run time (about
// 50 ms) keeps the served file in step with the source without a build step before `npm start`.
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { builtOnce, bundleScript, type PageBundle } from '../../shared/page-bundle.js';

export interface WidgetBundle extends PageBundle {
  /** gzip-compressed size in bytes, as a browser downloads it from a compressing proxy */
  gzipBytes: number;
}

export const WIDGET_ENTRY = fileURLToPath(new URL('../../../ui/widget/index.ts', import.meta.url));

export const widgetBundle = builtOnce(async (): Promise<WidgetBundle> => {
  const { code, etag } = await bundleScript(WIDGET_ENTRY, { target: 'es2019' });
  return { code, etag, gzipBytes: zlib.gzipSync(code, { level: 9 }).length };
});
