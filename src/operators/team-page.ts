// The Team page's script (ui/team/app.ts, plain TypeScript and the DOM), bundled on first request
// by shared/page-bundle.ts.
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const TEAM_ENTRY = fileURLToPath(new URL('../../ui/team/app.ts', import.meta.url));

export const teamBundle = pageBundle(TEAM_ENTRY);
