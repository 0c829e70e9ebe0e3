// Files sent as multipart/form-data: knowledge documents (knowledge.md "Sources": one `file` part
// and an optional `Name` field) and bot imports (importers.md: `file`, `Format?`, `Name?`), read
// through @fastify/multipart (busboy) with every part bounded. Only the scopes these routes live
// in take multipart: everywhere else it stays a 415. The file is held in memory (at most 10 MiB)
// and parsed on a thread of its own (indexing, importing).
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MAX_SOURCE_BYTES, tooLarge, type Upload } from '../knowledge/documents.js';
import { AppError } from '../shared/errors.js';
import type { App } from './app.js';

/** The longest Name field: the JSON body's own bound (knowledge-schemas.ts). */
const MAX_NAME_BYTES = 200 * 4;

/** What a multipart request leaves in request.body for validation (UploadBody) and the route. */
export interface UploadFields {
  Name?: string;
  /** imports only: `typebot`, `rasa` or `dialogflow` */
  Format?: string;
  file?: Upload;
}

/** The text fields a scope's form may carry besides its one `file`, and what the form is called in errors. */
export interface UploadForm {
  fields: ReadonlyArray<'Name' | 'Format'>;
  what: string;
}

const KNOWLEDGE_FORM: UploadForm = { fields: ['Name'], what: 'A knowledge upload' };

export async function acceptUploads(scope: App, form: UploadForm = KNOWLEDGE_FORM): Promise<void> {
  await scope.register(multipart, {
    // a 2nd file, one field more than the form has, or one part more, is refused (413) before it is read
    limits: { fileSize: MAX_SOURCE_BYTES, files: 1, fields: form.fields.length, parts: form.fields.length + 1, fieldSize: MAX_NAME_BYTES, fieldNameSize: 100, headerPairs: 100 },
  });
  // after the server's own preValidation (which only knows JSON bodies): the parts become the body
  scope.addHook('preValidation', async (request) => {
    if (request.isMultipart()) request.body = await readParts(request, form).catch(asClientError);
  });
}

async function readParts(request: FastifyRequest, form: UploadForm): Promise<UploadFields> {
  const fields: UploadFields = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw unknownPart(part.fieldname, form);
      fields.file = { fileName: part.filename, data: await readFile(part) };
    } else {
      const name = form.fields.find((f) => f === part.fieldname);
      if (name === undefined) throw unknownPart(part.fieldname, form);
      if (part.valueTruncated || typeof part.value !== 'string') throw new AppError('INVALID_REQUEST', `${name} is too long.`, { Field: name });
      fields[name] = part.value;
    }
  }
  if (fields.file === undefined) throw new AppError('MISSING_FIELD', 'Upload one file in the form field `file`.', { Field: 'file' });
  return fields;
}

/** The whole file, or 413 as soon as it passes the limit (the rest is not kept). */
async function readFile(part: MultipartFile): Promise<Buffer> {
  const data = await part.toBuffer();
  if (part.file.truncated) throw tooLarge();
  return data;
}

/**
 * Errors of our own and the plugin's limits (4xx, e.g. 413) stay as they are; anything else busboy
 * throws is a form it could not read ("Unexpected end of form", no boundary): the client's fault,
 * never a 500 (npm run fuzz sent `{}` as multipart/form-data).
 */
function asClientError(error: unknown): never {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error instanceof AppError || (typeof status === 'number' && status >= 400 && status < 500)) throw error;
  throw new AppError('INVALID_REQUEST', 'The body is not a readable multipart/form-data form.');
}

const unknownPart = (name: string, form: UploadForm) =>
  new AppError('INVALID_REQUEST', `${form.what} has a \`file\` part and ${form.fields.map((f) => `a \`${f}\``).join(' and ')} field only, not \`${name.slice(0, 100)}\`.`, {
    Field: name.slice(0, 100),
  });
