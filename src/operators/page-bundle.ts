// The console page's script: ui/console/console.ts and what it imports (the console's modules,
// the shared API client, and the widget's markdown, so an operator's text is shown exactly as the
// visitor sees it) as one bundle (shared/page-bundle.ts). ES module output: the page loads it with
// <script type="module"> from 'self', as the console's CSP wants.
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const CONSOLE_ENTRY = fileURLToPath(new URL('../../ui/console/console.ts', import.meta.url));

export const consoleBundle = pageBundle(CONSOLE_ENTRY, { format: 'esm' });
