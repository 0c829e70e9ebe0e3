// The broadcasts page's script (ui/broadcasts/app.ts), bundled on first request (shared/page-bundle.ts).
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const BROADCASTS_ENTRY = fileURLToPath(new URL('../../ui/broadcasts/app.ts', import.meta.url));

export const broadcastsBundle = pageBundle(BROADCASTS_ENTRY);
