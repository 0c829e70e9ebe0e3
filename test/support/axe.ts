// axe-core run in a page: the serious and critical violations, one line each (impact, rule, help,
// where), so a failing assertion names what to fix.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(() =>
    (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations),
  )) as { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}) at ${JSON.stringify(n.target)}`));
}

/**
 * axe-core's landmark rules, whatever their impact (axe rates them moderate, so seriousViolations
 * lets them through): one main, no second banner or main, banner and main at the top level,
 * landmarks told apart, and all content inside a landmark (`region`).
 */
export const LANDMARK_RULES = [
  'landmark-one-main',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-main',
  'landmark-banner-is-top-level',
  'landmark-main-is-top-level',
  'landmark-unique',
  'region',
];

export async function landmarkViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(
    (rules) =>
      (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: unknown[] }> } }).axe
        .run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] })
        .then((r) => r.violations),
    LANDMARK_RULES,
  )) as { id: string; help: string; nodes: { target: unknown[] }[] }[];
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}) at ${JSON.stringify(n.target)}`));
}
