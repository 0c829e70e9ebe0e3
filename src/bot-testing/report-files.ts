// The machine reports of `colloquy test`: JUnit XML (one <testsuite> per test file, one
// <testcase> per test; a file that cannot be used is a suite with one <error>) and JSON.
import os from 'node:os';
import type { RunResult } from './run.js';
import { shown } from './report-text.js';

// characters XML 1.0 cannot hold at all are dropped; the five specials are escaped
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 cannot hold
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const escapeXml = (text: string): string =>
  text.replace(XML_FORBIDDEN, '').replace(/[<>&"']/g, (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' } as Record<string, string>)[c]};`);

const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(run: RunResult, startedAt = new Date()): string {
  const timestamp = startedAt.toISOString().slice(0, 19);
  const hostname = os.hostname();
  const suites: string[] = [];
  let id = 0;
  for (const file of run.files) {
    const failures = file.tests.filter((t) => t.failure).length;
    const time = file.tests.reduce((n, t) => n + t.ms, 0);
    const cases = file.tests.map((t) => {
      const head = `    <testcase${attrs({ name: t.name, classname: shown(file.path), time: seconds(t.ms) })}`;
      if (!t.failure) return `${head}/>`;
      const f = t.failure;
      const details = [
        `${shown(t.file)}:${f.line}  ${f.step}`,
        `expected: ${f.expected}`,
        `got:      ${f.actual}`,
        ...(f.turn.length ? ["the bot's latest turn:", ...f.turn.map((l) => `  ${l}`)] : []),
      ];
      return `${head}>\n      <failure${attrs({ message: `line ${f.line}: expected ${f.expected}, got ${f.actual}`, type: 'StepFailed' })}>${escapeXml(details.join('\n'))}</failure>\n    </testcase>`;
    });
    const header = attrs({ name: shown(file.path), tests: file.tests.length, failures, errors: 0, skipped: 0, time: seconds(time), timestamp, hostname, id: id++, package: file.bot });
    const notes = file.notes.length ? `\n    <system-out>${escapeXml(file.notes.join('\n'))}</system-out>` : '';
    suites.push(`  <testsuite${header}>\n    <properties>\n      <property${attrs({ name: 'bot', value: file.bot })}/>\n    </properties>\n${cases.join('\n')}${notes}\n  </testsuite>`);
  }
  for (const problem of run.problems) {
    const message = problem.problems.map((p) => `${p.at}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`).join('\n');
    const name = shown(problem.via ?? problem.path);
    const header = attrs({ name, tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000', timestamp, hostname, id: id++, package: 'colloquy' });
    suites.push(
      `  <testsuite${header}>\n    <testcase${attrs({ name: `${shown(problem.path)} can be read`, classname: name, time: '0.000' })}>\n      <error${attrs({ message: `${shown(problem.path)} cannot be used`, type: 'FileProblem' })}>${escapeXml(message)}</error>\n    </testcase>\n  </testsuite>`,
    );
  }
  const tests = run.files.reduce((n, f) => n + f.tests.length, 0) + run.problems.length;
  const failures = run.files.reduce((n, f) => n + f.tests.filter((t) => t.failure).length, 0);
  const top = attrs({ name: 'colloquy test', tests, failures, errors: run.problems.length, time: seconds(run.ms) });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${top}>\n${suites.join('\n')}\n</testsuites>\n`;
}

export function jsonReport(run: RunResult): string {
  const tests = run.files.flatMap((f) => f.tests);
  return `${JSON.stringify(
    {
      summary: {
        tests: tests.length,
        passed: tests.filter((t) => !t.failure).length,
        failed: tests.filter((t) => t.failure).length,
        problems: run.problems.length,
        steps: run.steps,
        ms: Math.round(run.ms),
      },
      files: run.files.map((f) => ({
        path: shown(f.path),
        bot: f.bot,
        notes: f.notes,
        tests: f.tests.map((t) => ({ name: t.name, line: t.line, passed: t.failure === null, ms: Number(t.ms.toFixed(3)), failure: t.failure })),
      })),
      problems: run.problems.map((p) => ({ path: shown(p.path), ...(p.via ? { namedBy: shown(p.via) } : {}), problems: p.problems })),
      coverage: run.coverage?.map((c) => ({ ...c, path: shown(c.path) })) ?? null,
    },
    null,
    2,
  )}\n`;
}
