// The Knowledge page's script (ui/knowledge/app.ts, plain TypeScript and the DOM), bundled on first
// request by shared/page-bundle.ts.
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const KNOWLEDGE_ENTRY = fileURLToPath(new URL('../../ui/knowledge/app.ts', import.meta.url));

export const knowledgeBundle = pageBundle(KNOWLEDGE_ENTRY);
