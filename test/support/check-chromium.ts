// `npm test`'s first step (package.json "pretest"): the browser tests drive Debian's Chromium at
// /usr/bin/chromium, never a downloaded browser, so a machine without it hears how to get it at
// once instead of seeing every browser file fail twenty minutes later.
import fs from 'node:fs';
import { CHROMIUM } from './browser.js';

if (!fs.existsSync(CHROMIUM)) {
  console.error(`npm test: ${CHROMIUM} is missing. The browser tests drive Debian's Chromium: run \`apt-get install -y chromium\` as root, then npm test again.`);
  process.exit(1);
}
