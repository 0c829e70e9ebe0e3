// A server started from a build folder (`dist.<random>/`, bin/build.js) says so by writing its pid
// into the folder's `.users/`: a later build then leaves the folder alone while the server lives,
// since threads and lazy imports keep loading files from it. Imported first by cli.ts; nothing
// to do when running the sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const buildFolder = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (/^dist\.[\w-]+$/.test(path.basename(buildFolder))) {
  try {
    fs.mkdirSync(path.join(buildFolder, '.users'), { recursive: true });
    fs.writeFileSync(path.join(buildFolder, '.users', String(process.pid)), '');
  } catch {
    // a read-only install: no build runs there to remove the folder either
  }
}
