// A strict check of JUnit XML as CI servers read it: a small well-formedness parser (no
// dependency) and the structure of the JUnit schema (Jenkins' junit-10.xsd: which elements may
// hold which, in what order, required and typed attributes), plus the counts agreeing with the
// test cases. Returns the problems found; [] means valid.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string, where: string): string {
  if (/[<]/.test(raw)) throw new Error(`unescaped < in ${where}`);
  return raw.replace(/&([^;\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated entity in ${where}: ${whole}`);
    if (name in ENTITIES) return ENTITIES[name]!;
    const code = /^#x([0-9a-f]+)$/i.exec(name) ? parseInt(name.slice(2), 16) : /^#(\d+)$/.exec(name) ? Number(name.slice(1)) : NaN;
    if (Number.isNaN(code)) throw new Error(`unknown entity &${name}; in ${where}`);
    return String.fromCodePoint(code);
  });
}

/** Parses a well-formed XML document (elements, attributes, text; no DTD, no CDATA needed here). */
export function parseXml(xml: string): XmlElement {
  let at = 0;
  const declaration = /^<\?xml\s+version="1\.0"(\s+encoding="UTF-8")?\s*\?>\s*/.exec(xml);
  if (!declaration) throw new Error('no XML declaration <?xml version="1.0" encoding="UTF-8"?>');
  at = declaration[0].length;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the report must hold none of the characters XML 1.0 forbids
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) throw new Error('a character XML 1.0 does not allow');
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*"[^"]*")*)\s*(\/?)>/.exec(xml.slice(at));
    if (!open) throw new Error(`expected an element at offset ${at}: ${xml.slice(at, at + 40)}`);
    at += open[0].length;
    const attributes: Record<string, string> = {};
    for (const m of open[2]!.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g)) {
      if (m[1]! in attributes) throw new Error(`attribute ${m[1]} twice on <${open[1]}>`);
      attributes[m[1]!] = decode(m[2]!, `attribute ${m[1]} of <${open[1]}>`);
    }
    const node: XmlElement = { name: open[1]!, attributes, children: [], text: '' };
    if (open[3] === '/') return node;
    for (;;) {
      const textEnd = xml.indexOf('<', at);
      if (textEnd < 0) throw new Error(`<${node.name}> is never closed`);
      node.text += decode(xml.slice(at, textEnd), `the text of <${node.name}>`);
      at = textEnd;
      if (xml.startsWith('</', at)) {
        const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(at));
        if (!close || close[1] !== node.name) throw new Error(`<${node.name}> closed by ${xml.slice(at, at + 30)}`);
        at += close[0].length;
        return node;
      }
      node.children.push(element());
    }
  };
  const root = element();
  if (xml.slice(at).trim() !== '') throw new Error('content after the root element');
  return root;
}

type AttrType = 'string' | 'int' | 'decimal' | 'dateTime';
interface ElementRule {
  required: Record<string, AttrType>;
  optional: Record<string, AttrType>;
  /** allowed children in order: [name, min, max] groups (a choice group lists several names) */
  content: Array<[string[], number, number]>;
  text?: boolean;
}

const MANY = Infinity;
const RULES: Record<string, ElementRule> = {
  testsuites: { required: {}, optional: { name: 'string', time: 'decimal', tests: 'int', failures: 'int', disabled: 'int', errors: 'int' }, content: [[['testsuite'], 0, MANY]] },
  testsuite: {
    required: { name: 'string', tests: 'int' },
    optional: {
      failures: 'int',
      errors: 'int',
      time: 'decimal',
      disabled: 'int',
      skipped: 'int',
      timestamp: 'dateTime',
      hostname: 'string',
      id: 'string',
      package: 'string',
      file: 'string',
      log: 'string',
      url: 'string',
      version: 'string',
    },
    content: [
      [['properties'], 0, 1],
      [['testcase'], 0, MANY],
      [['system-out'], 0, 1],
      [['system-err'], 0, 1],
    ],
  },
  properties: { required: {}, optional: {}, content: [[['property'], 1, MANY]] },
  property: { required: { name: 'string', value: 'string' }, optional: {}, content: [] },
  testcase: {
    required: { name: 'string' },
    optional: { assertions: 'string', time: 'decimal', classname: 'string', status: 'string', class: 'string', file: 'string', line: 'string' },
    content: [[['skipped', 'error', 'failure', 'system-out', 'system-err'], 0, MANY]],
  },
  failure: { required: {}, optional: { message: 'string', type: 'string' }, content: [], text: true },
  error: { required: {}, optional: { message: 'string', type: 'string' }, content: [], text: true },
  skipped: { required: {}, optional: { message: 'string' }, content: [], text: true },
  'system-out': { required: {}, optional: {}, content: [], text: true },
  'system-err': { required: {}, optional: {}, content: [], text: true },
};

const TYPES: Record<AttrType, RegExp> = {
  string: /^[\s\S]*$/,
  int: /^(0|[1-9]\d*)$/,
  decimal: /^\d+(\.\d+)?$/,
  dateTime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
};

function check(node: XmlElement, path: string, problems: string[]): void {
  const rule = RULES[node.name];
  if (!rule) {
    problems.push(`${path}: <${node.name}> is not a JUnit element`);
    return;
  }
  for (const [name, type] of Object.entries(rule.required)) if (!(name in node.attributes)) problems.push(`${path}: required attribute ${name} missing (${type})`);
  for (const [name, value] of Object.entries(node.attributes)) {
    const type = rule.required[name] ?? rule.optional[name];
    if (!type) problems.push(`${path}: attribute ${name} is not allowed`);
    else if (!TYPES[type].test(value)) problems.push(`${path}: attribute ${name}="${value}" is not a ${type}`);
  }
  if (!rule.text && node.text.trim() !== '') problems.push(`${path}: text is not allowed in <${node.name}>`);
  let group = 0;
  let count = 0;
  for (const child of node.children) {
    while (group < rule.content.length && !rule.content[group]![0].includes(child.name)) {
      if (count < rule.content[group]![1]) problems.push(`${path}: <${rule.content[group]![0].join('|')}> needed before <${child.name}>`);
      group += 1;
      count = 0;
    }
    if (group >= rule.content.length) {
      problems.push(`${path}: <${child.name}> is not allowed here`);
      continue;
    }
    count += 1;
    if (count > rule.content[group]![2]) problems.push(`${path}: too many <${child.name}>`);
    check(child, `${path}/${child.name}`, problems);
  }
  for (let g = group; g < rule.content.length; g++) {
    if ((g === group ? count : 0) < rule.content[g]![1]) problems.push(`${path}: <${rule.content[g]![0].join('|')}> missing`);
  }
}

/** The problems of `xml` as a JUnit report, counts included. */
export function junitProblems(xml: string): string[] {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    return [`not well-formed: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (root.name !== 'testsuites') problems.push(`the root is <${root.name}>, not <testsuites>`);
  check(root, '/testsuites', problems);
  const sum = { tests: 0, failures: 0, errors: 0 };
  for (const suite of root.children) {
    const cases = suite.children.filter((c) => c.name === 'testcase');
    const counted = {
      tests: cases.length,
      failures: cases.filter((c) => c.children.some((x) => x.name === 'failure')).length,
      errors: cases.filter((c) => c.children.some((x) => x.name === 'error')).length,
    };
    for (const key of ['tests', 'failures', 'errors'] as const) {
      if (suite.attributes[key] !== undefined && Number(suite.attributes[key]) !== counted[key])
        problems.push(`testsuite ${suite.attributes.name}: ${key}=${suite.attributes[key]} but ${counted[key]} test cases`);
      sum[key] += counted[key];
    }
  }
  for (const key of ['tests', 'failures', 'errors'] as const) {
    if (root.attributes[key] !== undefined && Number(root.attributes[key]) !== sum[key]) problems.push(`testsuites: ${key}=${root.attributes[key]} but ${sum[key]} in its suites`);
  }
  return problems;
}
