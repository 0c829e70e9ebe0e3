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
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}) at ${JSON.stringify(n.target)}`));
}
