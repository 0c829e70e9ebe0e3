// Reading an upload into its files (importers.md "Limits"): a .zip (fflate's streaming Unzip), a
// .tar.gz (zlib with an output cap, then tar's parser) or one JSON/YAML file. Every limit is
// enforced while reading, never after: the zip's central directory is read first (entry count,
// links, paths) before anything is inflated, inflated bytes are counted as they come, and the
// gzip stream stops at the cap. Nothing is written to disk: entries are held in memory.
import { gunzipSync } from 'node:zlib';
import { Unzip, UnzipInflate } from 'fflate';
import { Parser, type ReadEntry } from 'tar';
import { ImportRefusal } from './refusal.js';

export const IMPORT_LIMITS = Object.freeze({
  /** the upload itself (the route answers 413 PAYLOAD_TOO_LARGE past it) */
  uploadBytes: 10 * 1024 * 1024,
  /** every entry of an archive, inflated, together */
  unpackedBytes: 50 * 1024 * 1024,
  /** entries of an archive, folders included */
  files: 2_000,
  /** folders inside folders in an entry's path */
  pathDepth: 32,
  /** characters of an entry's path */
  pathChars: 1_000,
});

/** The kept files: path inside the archive (always `/`, never climbing) → bytes. */
export type RawFiles = Map<string, Uint8Array>;

const invalid = (message: string, detail: Record<string, unknown> = {}) => new ImportRefusal('IMPORT_INVALID', message, detail);
const overLimit = (limit: keyof typeof IMPORT_LIMITS, message: string) => invalid(message, { Limit: limit, Max: IMPORT_LIMITS[limit] });

export const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The upload's files: an archive's entries, or the one file under its own name. */
export async function readUpload(bytes: Uint8Array, fileName: string): Promise<RawFiles> {
  if (bytes.length > IMPORT_LIMITS.uploadBytes) throw overLimit('uploadBytes', `The upload is larger than ${IMPORT_LIMITS.uploadBytes} bytes.`);
  if (isZip(bytes)) return readZip(bytes);
  if (isGzip(bytes)) return readTarGz(bytes);
  return new Map([[safePath(fileName.split(/[\\/]/).at(-1) || 'upload', fileName) ?? 'upload', bytes]]);
}

/**
 * An entry's path as kept, or null for a folder: `\` read as `/`, `./` dropped; a path that is
 * absolute, climbs out (`..`), is too deep or holds control characters is refused.
 */
function safePath(raw: string, shown = raw): string | null {
  const path = raw.replace(/\\/g, '/');
  const detail = { File: shown.slice(0, 200) };
  if (path.length > IMPORT_LIMITS.pathChars) throw overLimit('pathChars', `An entry's path is longer than ${IMPORT_LIMITS.pathChars} characters.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) throw invalid('An entry of the archive has control characters in its path.', detail);
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw invalid(`The entry "${shown.slice(0, 200)}" has an absolute path: every entry must stay inside the archive.`, detail);
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw invalid(`The entry "${shown.slice(0, 200)}" climbs out of the archive (..).`, detail);
  if (segments.length > IMPORT_LIMITS.pathDepth) throw overLimit('pathDepth', `An entry is nested more than ${IMPORT_LIMITS.pathDepth} folders deep.`);
  if (path.endsWith('/') || segments.length === 0) return null;
  return segments.join('/');
}

// --- zip ---------------------------------------------------------------------------------------

/** The central directory's entries: names and whether each is a link, read before any inflating. */
function centralDirectory(bytes: Uint8Array): Array<{ name: string; link: boolean }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the end-of-central-directory record is in the last 22 + 65,535 (comment) bytes
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalid('The .zip file is broken: it has no central directory.');
  const count = view.getUint16(eocd + 10, true);
  if (count > IMPORT_LIMITS.files) throw overLimit('files', `The archive has ${count} entries; at most ${IMPORT_LIMITS.files} are read.`);
  let at = view.getUint32(eocd + 16, true);
  const entries: Array<{ name: string; link: boolean }> = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw invalid('The .zip file is broken: its central directory is cut short.');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const mode = view.getUint32(at + 38, true) >>> 16;
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    // Unix attributes (made by 3) carry the file type: 0o120000 is a symbolic link
    entries.push({ name, link: madeBy === 3 && (mode & 0o170000) === 0o120000 });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readZip(bytes: Uint8Array): RawFiles {
  const listed = centralDirectory(bytes);
  for (const entry of listed) {
    if (entry.link) throw invalid(`The entry "${entry.name.slice(0, 200)}" is a link: archives with links are not read.`, { File: entry.name.slice(0, 200) });
    safePath(entry.name);
  }
  const files: RawFiles = new Map();
  let total = 0;
  let entries = 0;
  let failure: unknown = null;
  const unzip = new Unzip((file) => {
    if (failure) return;
    try {
      if (++entries > IMPORT_LIMITS.files) throw overLimit('files', `The archive has more than ${IMPORT_LIMITS.files} entries.`);
      const path = safePath(file.name);
      if (path === null) return;
      const chunks: Uint8Array[] = [];
      file.ondata = (error, chunk, final) => {
        if (failure) return;
        try {
          if (error) throw invalid(`The entry "${path}" of the .zip file cannot be inflated.`, { File: path });
          total += chunk.length;
          if (total > IMPORT_LIMITS.unpackedBytes) throw overLimit('unpackedBytes', `The archive unpacks to more than ${IMPORT_LIMITS.unpackedBytes} bytes.`);
          chunks.push(chunk);
          if (final) files.set(path, concat(chunks));
        } catch (err) {
          failure = err;
          file.terminate();
        }
      };
      file.start();
    } catch (err) {
      failure = err;
    }
  });
  unzip.register(UnzipInflate);
  try {
    // pushed in slices: a slice inflates to at most about a thousand times its size before the count stops it
    for (let at = 0; at < bytes.length && !failure; at += 64 * 1024) unzip.push(bytes.subarray(at, at + 64 * 1024), at + 64 * 1024 >= bytes.length);
  } catch (err) {
    failure ??= err instanceof ImportRefusal ? err : invalid('The .zip file is broken and cannot be read.');
  }
  if (failure) throw failure instanceof ImportRefusal ? failure : invalid('The .zip file is broken and cannot be read.');
  return files;
}

// --- tar.gz ------------------------------------------------------------------------------------

function readTarGz(bytes: Uint8Array): Promise<RawFiles> {
  let tarBytes: Buffer;
  try {
    // the output cap stops a gzip bomb while it inflates (tar's headers take some room besides the files)
    tarBytes = gunzipSync(bytes, { maxOutputLength: IMPORT_LIMITS.unpackedBytes + 2 * 1024 * 1024 });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw overLimit('unpackedBytes', `The archive unpacks to more than ${IMPORT_LIMITS.unpackedBytes} bytes.`);
    throw invalid('The .tar.gz file is broken and cannot be read.');
  }
  return new Promise((resolve, reject) => {
    const files: RawFiles = new Map();
    let total = 0;
    let entries = 0;
    let failure: unknown = null;
    const fail = (error: unknown) => {
      failure ??= error;
      parser.abort(error instanceof Error ? error : new Error(String(error)));
    };
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        try {
          if (failure) return entry.resume();
          if (++entries > IMPORT_LIMITS.files) throw overLimit('files', `The archive has more than ${IMPORT_LIMITS.files} entries.`);
          const path = safePath(entry.path);
          if (entry.type === 'SymbolicLink' || entry.type === 'Link')
            throw invalid(`The entry "${entry.path.slice(0, 200)}" is a link: archives with links are not read.`, { File: entry.path.slice(0, 200) });
          if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') return entry.resume();
          if (path === null) return entry.resume();
          if (total + (entry.size ?? 0) > IMPORT_LIMITS.unpackedBytes) throw overLimit('unpackedBytes', `The archive unpacks to more than ${IMPORT_LIMITS.unpackedBytes} bytes.`);
          const chunks: Uint8Array[] = [];
          entry.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > IMPORT_LIMITS.unpackedBytes) fail(overLimit('unpackedBytes', `The archive unpacks to more than ${IMPORT_LIMITS.unpackedBytes} bytes.`));
            else chunks.push(chunk);
          });
          entry.on('end', () => files.set(path, concat(chunks)));
        } catch (err) {
          entry.resume();
          fail(err);
        }
      },
    });
    parser.on('error', (err: unknown) => fail(err instanceof ImportRefusal ? err : invalid('The .tar.gz file is broken and cannot be read.')));
    parser.on('abort', () => reject(failure instanceof ImportRefusal ? failure : invalid('The .tar.gz file is broken and cannot be read.')));
    parser.on('end', () => (failure ? reject(failure) : resolve(files)));
    parser.end(tarBytes);
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
