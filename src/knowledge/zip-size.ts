// A DOCX's unzipped size, measured before mammoth unzips it (issue 35: a 338 KB DOCX held 100 MB of
// XML). The central directory's sizes are the sender's word, so each part is inflated here with
// node:zlib's maxOutputLength set to what is left of the cap: inflating stops at the cap, it is
// never finished first and measured after. Runs on the indexing thread (reading.ts).
import zlib from 'node:zlib';
import { DOCUMENT_LIMITS, DocumentError, DocumentTooLarge } from './document-limits.js';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

const unreadable = (why: string) => new DocumentError(`the file is not a readable DOCX (${why})`);

/** Throws DocumentTooLarge when the parts inflate to more than `max` bytes in all. */
export function checkUnzippedSize(zip: Buffer, max: number = DOCUMENT_LIMITS.docxXmlBytes): void {
  const over = () => new DocumentTooLarge('KnowledgeSourceXmlBytes', max, 'bytes once unzipped');
  // the end record sits in the last 22 bytes plus a comment of up to 65,535
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw unreadable('no zip directory');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw unreadable('a broken zip directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) throw unreadable('a broken zip entry');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, Math.min(zip.length, start + compressed));
    if (method === 0) total += data.length;
    else if (method === 8) total += inflatedLength(data, max - total, over);
    else throw unreadable(`compression method ${method}`);
    if (total > max) throw over();
  }
}

function inflatedLength(data: Buffer, room: number, over: () => Error): number {
  try {
    // one byte more than the room: a part exactly filling it is not over
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, room + 1), finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw over();
    throw unreadable('a broken compressed part');
  }
}
