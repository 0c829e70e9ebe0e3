// One upload → its format → a bot file and a report: the whole import but the save, as one
// function of bytes. The service runs it on a thread of its own (service.ts): unpacking and
// parsing up to 50 MiB is CPU work no request thread should wait for.
import { BotParseError, BotRequestError, parseBotDocument } from '../bots/parse.js';
import { readUpload } from './archive.js';
import { convertDialogflow, isDialogflowExport } from './dialogflow/convert.js';
import { IMPORT_FORMATS, type ConvertedExport, type ImportFormat } from './model.js';
import { convertRasa, isRasaDocument } from './rasa/convert.js';
import { ImportRefusal } from './refusal.js';
import { convertTypebot, isTypebotExport } from './typebot/convert.js';

export { ImportRefusal } from './refusal.js';

export interface UploadJob {
  bytes: Uint8Array;
  fileName: string;
  format?: ImportFormat;
}

const PARSED = /\.(json|ya?ml)$/i;
/** What an archive may hold beside the export and is passed over in the report's Skipped list. */
const MAX_IGNORED_REPORTED = 50;

export async function convertUpload(job: UploadJob): Promise<ConvertedExport> {
  if (job.format !== undefined && !IMPORT_FORMATS.includes(job.format)) throw new ImportRefusal('IMPORT_UNSUPPORTED', `Format must be one of ${IMPORT_FORMATS.join(', ')}.`, { Field: 'Format' });
  const raw = await readUpload(job.bytes, job.fileName);
  const single = raw.size === 1 && ![...raw.keys()][0]!.includes('/') && !/\.(zip|gz|tgz)$/i.test(job.fileName) ? [...raw.keys()][0]! : null;
  const root = rootOf([...raw.keys()]);
  const files = new Map<string, unknown>();
  const ignored: string[] = [];
  for (const [path, bytes] of raw) {
    const inside = path.startsWith(root) ? path.slice(root.length) : null;
    const base = path.split('/').at(-1)!;
    if (inside === null || path.startsWith('__MACOSX/') || base.startsWith('.')) continue;
    if (!PARSED.test(inside) && path !== single) {
      if (/\.md$/i.test(inside))
        files.set(inside, null); // Rasa 1.x training data: refused by name
      else ignored.push(inside);
      continue;
    }
    files.set(inside, parseFile(inside, bytes));
  }
  const format = job.format ?? detect(files);
  const converted = convert(format, files, single ?? 'typebot.json');
  for (const path of ignored.slice(0, MAX_IGNORED_REPORTED))
    converted.report.Skipped.push({ Path: `${path}: $`, What: 'a file', Why: path.endsWith('.py') ? 'program code (custom actions) is not carried' : 'it is not a file of the export (JSON or YAML)' });
  if (ignored.length > MAX_IGNORED_REPORTED) converted.report.Skipped.push({ Path: '', What: `${ignored.length - MAX_IGNORED_REPORTED} more files`, Why: 'not files of the export' });
  return { format, ...converted };
}

/** The folder the export lives in inside the archive (a zip of a folder holds `folder/agent.json`). */
function rootOf(paths: string[]): string {
  const marker = paths.filter((p) => /(^|\/)(agent\.json|domain\.ya?ml)$/.test(p) && !p.startsWith('__MACOSX/')).sort((a, b) => a.split('/').length - b.split('/').length)[0];
  if (marker) return marker.slice(0, marker.lastIndexOf('/') + 1);
  const firsts = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/') + 1) : '')));
  return firsts.size === 1 ? [...firsts][0]! : '';
}

function parseFile(path: string, bytes: Uint8Array): unknown {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  try {
    return parseBotDocument(text, /\.ya?ml$/i.test(path) ? 'application/yaml' : 'application/json');
  } catch (err) {
    if (err instanceof BotParseError) {
      const limit = err.limit ? { Limit: err.limit.limit, Max: err.limit.max } : {};
      throw new ImportRefusal('IMPORT_INVALID', `${path}: ${err.message}`, { File: path, Path: '$', ...limit });
    }
    if (err instanceof BotRequestError) throw new ImportRefusal('IMPORT_INVALID', `${path}: ${err.message}`, { File: path, Path: '$' });
    throw err;
  }
}

function detect(files: ReadonlyMap<string, unknown>): ImportFormat {
  if (isDialogflowExport(files)) return 'dialogflow';
  const docs = [...files.values()];
  if (docs.length === 1 && isTypebotExport(docs[0])) return 'typebot';
  if ([...files.keys()].some((p) => /(^|\/)(nlu|stories|rules)\.md$/i.test(p)) || docs.some(isRasaDocument)) return 'rasa';
  throw new ImportRefusal('IMPORT_UNSUPPORTED', 'This is not a Typebot, Rasa or Dialogflow ES export.', { File: [...files.keys()][0] ?? null });
}

function convert(format: ImportFormat, files: ReadonlyMap<string, unknown>, singleName: string) {
  if (format === 'typebot') {
    const docs = [...files.entries()].filter(([, doc]) => isTypebotExport(doc));
    if (docs.length !== 1)
      throw new ImportRefusal(
        'IMPORT_UNSUPPORTED',
        docs.length === 0 ? 'This is not a Typebot export (a JSON with groups and edges).' : 'The archive holds several typebots: import them one at a time.',
        { File: singleName },
      );
    return convertTypebot(docs[0]![1], docs[0]![0]);
  }
  if (format === 'dialogflow') {
    if (!files.has('agent.json'))
      throw new ImportRefusal('IMPORT_INVALID', 'A Dialogflow ES export needs agent.json (export the agent as a .zip from its settings).', { File: 'agent.json', Path: '$' });
    return convertDialogflow(files);
  }
  if (![...files.values()].some(isRasaDocument) && ![...files.keys()].some((p) => p.endsWith('.md')))
    throw new ImportRefusal('IMPORT_UNSUPPORTED', 'This is not a Rasa project (domain, nlu, rules or stories).', { File: singleName });
  return convertRasa(files);
}
