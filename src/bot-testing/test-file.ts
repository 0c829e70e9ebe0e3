// Reading a conversation test file (testing.md): YAML or JSON, checked against TEST_FILE_SCHEMA,
// each test and step with the line it starts on so that a failure can point at it. A file that
// cannot be used is a list of problems with their paths (the run exits 2), never an exception.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isMap, isNode, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { type STEP_KIND_NAMES, TEST_FILE_SCHEMA } from './schema.js';
import type { ModelAnswerStub } from './model-script.js';
import { looseRegex } from './regex.js';

export type StepKind = (typeof STEP_KIND_NAMES)[number];
export type Matcher = string | { contains: string } | { regex: string } | { any: true };

export interface Step {
  kind: StepKind;
  value: unknown;
  /** 1-based line of the step in its file */
  line: number;
}

export interface CallApiStub {
  url?: string;
  match?: string;
  method?: string;
  status?: number | 'TIMEOUT' | 'ERROR';
  json?: unknown;
  body?: string;
}
export interface AnswerStub {
  match: string;
  answer?: string;
  status?: 'OK' | 'TIMEOUT' | 'ERROR' | 'NOT_CONFIGURED';
}
export interface KnowledgeStub {
  match: string;
  answer?: string;
  sources?: string[];
  status?: 'ANSWERED' | 'NO_ANSWER' | 'ERROR' | 'TIMEOUT';
}
export interface Stubs {
  callApi: CallApiStub[];
  ai: AnswerStub[];
  knowledge: KnowledgeStub[];
  /** an agent's model answers, in order (model-script.ts) */
  model: ModelAnswerStub[];
}

export interface TestCase {
  name: string;
  line: number;
  variables: Record<string, string>;
  /** the fixed clock, ms since the epoch */
  now: number;
  stubs: Stubs;
  steps: Step[];
}

export interface TestFile {
  path: string;
  /** the bot file, resolved against the test file's folder */
  botPath: string;
  tests: TestCase[];
}

export interface FileProblem {
  path: string;
  /** for a bot file: the test file that named it */
  via?: string;
  problems: Array<{ at: string; line?: number; message: string }>;
}

export const DEFAULT_NOW = '2026-01-05T09:00:00Z';
/** Bigger files are refused before they are parsed. */
export const MAX_TEST_FILE_BYTES = 8 * 1024 * 1024;

let validator: ReturnType<Ajv2020['compile']> | null = null;
function validate(doc: unknown): ErrorObject[] {
  if (validator === null) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validator = ajv.compile(TEST_FILE_SCHEMA);
  }
  return validator(doc) ? [] : (validator.errors ?? []);
}

const jsonPath = (pointer: string): string =>
  `$${pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')}`;

/** ajv's errors, one per path, the most telling first (a oneOf's own complaint is the least). */
function schemaProblems(errors: ErrorObject[], lineAt: (pointer: string) => number | undefined): FileProblem['problems'] {
  const byPath = new Map<string, ErrorObject>();
  for (const error of errors) {
    const pointer = error.keyword === 'additionalProperties' ? `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}` : error.instancePath;
    const known = byPath.get(pointer);
    if (!known || known.keyword === 'oneOf' || known.keyword === 'type') byPath.set(pointer, { ...error, instancePath: pointer });
  }
  return [...byPath.values()].map((e) => ({
    at: jsonPath(e.instancePath),
    line: lineAt(e.instancePath),
    message: e.keyword === 'additionalProperties' ? 'is not a known member here' : (e.message ?? 'is not valid'),
  }));
}

/** Reads, parses and checks one test file. */
export function readTestFile(file: string): TestFile | FileProblem {
  const problem = (message: string, at = '$', line?: number): FileProblem => ({ path: file, problems: [{ at, line, message }] });
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_TEST_FILE_BYTES) return problem(`larger than ${MAX_TEST_FILE_BYTES} bytes`);
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    return problem(`cannot be read: ${(error as Error).message}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    return problem(`invalid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${first.message.split('\n')[0]}`, '$', lines.linePos(first.pos[0]).line);
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  const lineAt = (pointer: string): number | undefined => {
    const keys = pointer
      .split('/')
      .slice(1)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = (keys.length === 0 ? doc.contents : doc.getIn(keys, true)) as Node | undefined;
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  const errors = validate(data);
  if (errors.length > 0) return { path: file, problems: schemaProblems(errors, lineAt) };
  // biome-ignore lint/suspicious/noExplicitAny: the file passed TEST_FILE_SCHEMA just above; its fields are read as the schema says
  const raw = data as { bot: string; tests: Array<Record<string, any>> };
  const problems: FileProblem['problems'] = [];
  const lined = linesOfSteps(doc, lines);
  const tests = raw.tests.map((t, i) => toTestCase(t, `/tests/${i}`, lineAt, problems, lined[i]!));
  if (problems.length > 0) return { path: file, problems };
  return { path: file, botPath: path.resolve(path.dirname(file), raw.bot), tests };
}

/** The line of each test and of each of its steps, in one walk (a lookup per step costs a walk each). */
function linesOfSteps(doc: Document, lines: LineCounter): Array<{ test: number; steps: number[] }> {
  const lineOf = (node: unknown) => (isNode(node) && node.range ? lines.linePos(node.range[0]).line : 0);
  const tests = doc.get('tests', true);
  return (isSeq(tests) ? tests.items : []).map((test) => {
    const steps = isMap(test) ? test.get('steps', true) : undefined;
    return { test: lineOf(test), steps: isSeq(steps) ? steps.items.map(lineOf) : [] };
  });
}

// biome-ignore lint/suspicious/noExplicitAny: a test already checked by TEST_FILE_SCHEMA
function toTestCase(raw: Record<string, any>, at: string, lineAt: (pointer: string) => number | undefined, problems: FileProblem['problems'], lined: { test: number; steps: number[] }): TestCase {
  const regexAt = (pattern: string, pointer: string) => {
    try {
      looseRegex(pattern);
    } catch (error) {
      problems.push({ at: jsonPath(pointer), line: lineAt(pointer), message: `not a regular expression: ${(error as Error).message}` });
    }
  };
  const stubs: Stubs = { callApi: raw.stubs?.callApi ?? [], ai: raw.stubs?.ai ?? [], knowledge: raw.stubs?.knowledge ?? [], model: raw.stubs?.model ?? [] };
  for (const kind of ['callApi', 'ai', 'knowledge'] as const) {
    stubs[kind].forEach((s: { match?: string }, i: number) => s.match !== undefined && regexAt(s.match, `${at}/stubs/${kind}/${i}/match`));
  }
  const steps = (raw.steps as Array<Record<string, unknown>>).map((step, i) => {
    const kind = Object.keys(step)[0] as StepKind;
    const value = step[kind];
    if (kind === 'bot' && typeof value === 'object' && value !== null && 'regex' in value) regexAt(String(value.regex), `${at}/steps/${i}/bot/regex`);
    return { kind, value, line: lined.steps[i] ?? 0 };
  });
  const variables = Object.fromEntries(Object.entries((raw.variables ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  const now = Date.parse(raw.now ?? DEFAULT_NOW);
  return { name: raw.name, line: lined.test, variables, now, stubs, steps };
}

/** The test files named: files as they are, folders searched for *.test.yaml / .yml / .json. */
export function findTestFiles(paths: string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isTestFileName(entry.name)) files.push(full);
    }
  };
  for (const given of paths.length > 0 ? paths : ['.']) {
    const full = path.resolve(given);
    if (!fs.existsSync(full)) missing.push(given);
    else if (fs.statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
  return { files: [...new Set(files)], missing };
}

export const isTestFileName = (name: string): boolean => /\.test\.(ya?ml|json)$/i.test(name);
