// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, time by
// origin (project source, each package, Node internals, GC), and inclusive time of the project's
// own functions. Used by `npm run bench -- --profile`; also on its own:
//   npx tsx bench/profile.ts /tmp/.../CPU.*.cpuprofile [top] [skip-first-ms]
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Layers of the server, matched on a sample's stack from the leaf up: the first frame that matches names the layer. */
const LAYERS: Array<[string, RegExp]> = [
  ['SQLite driver: statements, BEGIN/COMMIT, checkpoints (incl. native)', /node_modules\/better-sqlite3\/|\/src\/store\/sqlite\.ts/],
  ['store repositories: SQL parameters, row mapping, JSON', /\/src\/store\//],
  ['authentication: JWT verify (jose, WebCrypto), principal lookup', /node_modules\/jose\/|node:internal\/crypto|\/src\/auth\//],
  ['engine: running the interaction', /\/src\/engine\/|\/src\/conversations\/drive-turn\.ts|\/src\/shared\/template\.ts/],
  ['turn orchestration: chat service, turns, mutexes, events', /\/src\/(conversations|channels|shared|bots)\//],
  ['metrics (prom-client)', /node_modules\/prom-client\/|\/src\/observability\//],
  ['Fastify: routing, hooks, validation, serialization', /node_modules\/(fastify|find-my-way|avvio|ajv|fast-json-stringify|@fastify|light-my-request|pino)|\/src\/http\//],
  ['Node HTTP server and sockets', /^node:(_http|http|net|internal\/(http|stream|streams|net|timers))/],
];

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function origin(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)' || name === '(root)') return name;
  if (url === '') return '(native / V8 builtins)';
  if (url.startsWith('node:')) return 'node: internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  const local = url.replace(/^file:\/\//, '').replace(ROOT, '');
  const dir = /^(src\/[^/]+(?:\/[^/]+)?)\//.exec(local);
  return dir ? dir[1] : local;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(ROOT, '')
    .replace(/^.*node_modules\//, '');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  lines: string[];
}

/** `sinceMs`: only samples taken at least this long after the profile started (skips start-up and warm-up). */
export function summariseProfile(file: string, top = 25, sinceMs = 0): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  // The server runs compiled (dist/x.js, as `npm start`): name its frames by their source file so
  // that layers and origins read the same as for sources run through tsx (line numbers stay the JS's).
  for (const node of profile.nodes) node.callFrame.url = node.callFrame.url.replace(/\/dist\/(.+)\.js$/, '/src/$1.ts');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // timeDeltas[i + 1] is the time spent in the sample i.
  const selfUs = new Map<number, number>();
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < sinceMs * 1000) continue;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
  }
  const totalUs = [...selfUs.values()].reduce((s, v) => s + v, 0);
  const idleUs = [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((s, [, v]) => s + v, 0);
  const busyUs = totalUs - idleUs;

  const selfByLabel = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byLayer = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    let layer = ['(garbage collector)', '(program)'].includes(node.callFrame.functionName) ? node.callFrame.functionName : 'other';
    for (let up: number | undefined = id; up !== undefined && layer === 'other'; up = parent.get(up)) {
      const url = byId.get(up)!.callFrame.url;
      layer = LAYERS.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
    }
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + us);
    selfByLabel.set(label(node), (selfByLabel.get(label(node)) ?? 0) + us);
    const where = origin(node.callFrame.url, node.callFrame.functionName);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + us);
    // Inclusive time of project functions: each function counted once per stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!;
      if (!frame.callFrame.url.includes('/src/')) continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }

  const pct = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const rows = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `  ${ms(us)} ${pct(us)}  ${name}`);
  const lines = [
    `profile ${file}`,
    `  ${(totalUs / 1000).toFixed(0)} ms sampled${sinceMs ? ` (from ${(sinceMs / 1000).toFixed(1)} s on)` : ''}, ` + `${(busyUs / 1000).toFixed(0)} ms busy (percentages are of busy time)`,
    '',
    'Time by layer (each sample goes to the innermost frame of a known layer):',
    ...rows(byLayer, 20),
    '',
    `Top ${top} functions by self time:`,
    ...rows(selfByLabel, top),
    '',
    'Self time by origin:',
    ...rows(byOrigin, 20),
    '',
    'Inclusive time of project functions (src/):',
    ...rows(inclusive, 20),
  ];
  return { totalMs: totalUs / 1000, busyMs: busyUs / 1000, lines };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: tsx bench/profile.ts FILE.cpuprofile [top]\n');
    process.exit(1);
  }
  process.stdout.write(`${summariseProfile(file, Number(process.argv[3] ?? 25), Number(process.argv[4] ?? 0)).lines.join('\n')}\n`);
}
