// Imports (importers.md) in tests: the real exports of ../shared/imports (read where they are,
// never copied into the repository), packed into a .zip or .tar.gz as the platforms hand them
// out, and posted to /bots/import as multipart/form-data.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { parseBotDocument } from '../../src/bots/parse.js';
import { create as tarCreate } from 'tar';
import type { Client, Response } from './client.js';
import { upload } from './knowledge-files.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * ../shared/imports next to the project (the main checkout), or next to the folder of worktrees
 * (a helper's worktree lives one level deeper).
 */
export const sharedImports: string = (() => {
  const candidates = [path.resolve(projectRoot, '../shared/imports'), path.resolve(projectRoot, '../../shared/imports')];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`../shared/imports not found (looked in ${candidates.join(', ')})`);
  return found;
})();

/** Every file under `dir`, relative, `/`-separated, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(path.join(dir, at), { withFileTypes: true })) {
      const rel = at ? `${at}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/** A .zip of a folder of ../shared/imports (`prefix` puts it in a folder of the archive, as many exports are). */
export async function zipOf(folder: string, prefix = ''): Promise<Buffer> {
  const dir = path.join(sharedImports, folder);
  const zip = new JSZip();
  for (const file of filesUnder(dir)) zip.file(prefix + file, fs.readFileSync(path.join(dir, file)));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A .zip of files given by content. */
export async function zipFiles(files: Record<string, string | Buffer>, options: { symlink?: string } = {}): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content, options.symlink === name ? { unixPermissions: 0o120777 } : {});
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' });
}

/** A .tar.gz of a folder of ../shared/imports, made by the tar package as `tar czf` would. */
export async function tarGzOf(folder: string): Promise<Buffer> {
  const dir = path.join(sharedImports, folder);
  const chunks: Buffer[] = [];
  const stream = tarCreate({ gzip: true, cwd: dir, portable: true }, filesUnder(dir));
  for await (const chunk of stream as unknown as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export const readShared = (file: string): Buffer => fs.readFileSync(path.join(sharedImports, file));

/** POST /bots/import (or its preview) with a file and fields. */
export function importFile(client: Client, token: string, file: { name: string; data: Buffer }, fields: Record<string, string> = {}, preview = false): Promise<Response> {
  return upload(client, 'POST', preview ? '/bots/import/preview' : '/bots/import', token, file, fields);
}

/** One ustar header block (512 bytes) for `name`: type '0' a file, '2' a symbolic link, '1' a hard link. */
function tarHeader(name: string, size: number, type: string, linkname = ''): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write(type, 156);
  header.write(linkname, 157, 100, 'utf8');
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** A .tar.gz written byte by byte, so that it may hold what tar itself refuses to write (`..`, links). */
export function rawTarGz(entries: Array<{ name: string; data?: string | Buffer; type?: '0' | '1' | '2'; linkname?: string }>): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : (entry.data ?? Buffer.alloc(0));
    blocks.push(tarHeader(entry.name, entry.type === '0' || entry.type === undefined ? data.length : 0, entry.type ?? '0', entry.linkname));
    if (entry.type === '0' || entry.type === undefined) blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** A folder of test/fixtures/imports (or an absolute folder) parsed as the importers get it: path → document. */
export function exportFilesOf(folder: string): Map<string, unknown> {
  const dir = path.isAbsolute(folder) ? folder : path.join(projectRoot, 'test/fixtures/imports', folder);
  return new Map(
    filesUnder(dir)
      .filter((f) => /\.(json|ya?ml)$/.test(f))
      .map((f) => [f, parseBotDocument(fs.readFileSync(path.join(dir, f), 'utf8'), f.endsWith('.json') ? 'application/json' : 'application/yaml')]),
  );
}

export const fixtureText = (file: string): string => fs.readFileSync(path.join(projectRoot, 'test/fixtures/imports', file), 'utf8');
