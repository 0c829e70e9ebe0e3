// The analytics page's script (ui/analytics/app.ts with Chart.js and dagre), bundled on first
// request by shared/page-bundle.ts.
import { fileURLToPath } from 'node:url';
import { pageBundle } from '../shared/page-bundle.js';

export const ANALYTICS_ENTRY = fileURLToPath(new URL('../../ui/analytics/app.ts', import.meta.url));

export const analyticsBundle = pageBundle(ANALYTICS_ENTRY);
