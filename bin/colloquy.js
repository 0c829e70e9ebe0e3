#!/usr/bin/env -S node --max-semi-space-size=64
// `npx colloquy ...`: the compiled program in dist/ (`npm start` and `npm run build` make it) when
// it is up to date with src/; otherwise the TypeScript sources through tsx, so that the command
// works without a build step and never runs code older than the sources. The V8 flag is npm
// start's (docs/performance.md: a larger young generation, fewer and cheaper scavenges).
import { compiledIsCurrent } from './build.js';

if (compiledIsCurrent()) {
  await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
