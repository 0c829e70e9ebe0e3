// Hostile bot files of issue 35 finding 1, made by the tests (and bench/bot-file-bounds.ts): each
// stalled the server for seconds to minutes when YAML was parsed on the event loop with the
// parser's quadratic duplicate-key check. Sizes stay under the 5 MiB body limit of bot files.

/** `count` distinct short keys, one a line: `k0: v` … */
export const yamlKeys = (count: number): string => Array.from({ length: count }, (_, i) => `k${i}: v`).join('\n');

/** 600,000 keys in 4.8 MB (base-36 names: `a1b2: 1`), inside the body limit. */
export const yaml600kKeys = (): string => Array.from({ length: 600_000 }, (_, i) => `${i.toString(36)}: 1`).join('\n');

/** `[[[[…` of `bytes` characters: one flow sequence inside another. */
export const flowBrackets = (bytes: number): string => '['.repeat(bytes);

/** A block list of about `bytes` characters: `- item0`, `- item1` … */
export function yamlList(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `- item${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** Keys nested `levels` deep by indentation alone (`k:` under `k:` …). */
export const deepBlock = (levels: number): string => `${Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} x`;

/** One anchor and `aliases` aliases of it: each alias is cheap, so many of them are the bomb. */
export const aliasBomb = (aliases: number): string => ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: aliases }, (_, i) => `b${i}: *a`)].join('\n');

/** A JSON bot of 600,000 keys (463 maps of 1,296 two-letter keys each), about 4.6 MB. */
export function json600kKeys(): string {
  const names = Array.from({ length: 1296 }, (_, i) => `"${i.toString(36).padStart(2, '0')}":0`).join(',');
  const groups = Array.from({ length: 463 }, (_, g) => `"g${g}":{${names}}`).join(',');
  return `{"format":"colloquy/bot@1","name":"Big","behaviours":[],"x":{${groups}}}`;
}

/** A legitimate bot file of `interactions` interactions (about 150 bytes each), as an object. */
export function largeBot(interactions: number): any {
  return {
    format: 'colloquy/bot@1',
    name: 'Large',
    behaviours: [
      {
        name: 'Main',
        start: true,
        interactions: Array.from({ length: interactions }, (_, i) => ({
          name: `Step ${i}`,
          ...(i === 0 ? { start: true } : {}),
          actions: [
            { type: 'text', text: `This is step ${i} of a long, legitimate bot; it says something useful.` },
            { type: 'text', text: 'Anything else?' },
          ],
        })),
      },
    ],
  };
}
