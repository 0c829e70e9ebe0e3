// The Audit page's script (ui/audit/app.ts, plain TypeScript and the DOM), bundled on first request
// by shared/page-bundle.ts.
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const AUDIT_ENTRY = fileURLToPath(new URL('../../ui/audit/app.ts', import.meta.url));

export const auditBundle = pageBundle(AUDIT_ENTRY);
