// Wall time of cutting one paragraph with no line break into passages (passages.ts), at a few
// sizes: `npx tsx bench/knowledge-cut.ts 248,1500,10240` (KB). PASSAGES=/path/to/passages.ts
// times another version of the file (e.g. `git show main:src/knowledge/passages.ts` copied next to it).
const { cutMarkdown } = (await import(process.env.PASSAGES ?? '../src/knowledge/passages.js')) as typeof import('../src/knowledge/passages.js');
const sizes = (process.argv[2] ?? '248,1500,10240').split(',').map((kb) => Number(kb) * 1024);
const sentence = (i: number) => `Clause ${i} of the agreement sets rule r${i} for item number ${i * 7} and more words here. `;
for (const size of sizes) {
  const parts: string[] = [];
  for (let n = 0, length = 0; length < size; n++) {
    parts.push(sentence(n));
    length += parts[n].length;
  }
  const text = parts.join('').slice(0, size);
  const started = performance.now();
  const passages = cutMarkdown(text);
  console.log(JSON.stringify({ kb: size / 1024, ms: Math.round(performance.now() - started), passages: passages.length }));
}
