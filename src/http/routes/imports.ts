// importers.md: `POST /bots/import` makes a bot of a Typebot, Rasa or Dialogflow ES export (account
// token, multipart: `file`, `Format?`, `Name?`), created and published as `POST /bots` does;
// `POST /bots/import/preview` answers the bot file and the report and creates nothing. Their
// console twins (/console/api/bots/import…) serve the designer's "Import a bot…" with the session
// cookie, for those who may make a bot there (designers, admins): the new bot answers as the
// console's bot picker lists it, never with its API secret.
import type { FastifyRequest } from 'fastify';
import type { AccountRecord } from '../../accounts/model.js';
import type { ImportFormat } from '../../importers/model.js';
import type { ImportOptions, ImportUpload } from '../../importers/service.js';
import { AppError } from '../../shared/errors.js';
import { authed, type App } from '../app.js';
import { ConsoleImportedBot, ImportBodies, ImportedBot, ImportPreview } from '../import-schemas.js';
import type { Services } from '../services.js';
import { acceptUploads, type UploadFields } from '../uploads.js';
import { TRAINING_ERRORS } from './bots.js';
import { operatorSignIn, SESSION_ERRORS } from './console-session.js';

/** Multipart overhead on top of the 10 MiB file: the boundary, headers and two short fields. */
const IMPORT_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024;
const IMPORT_ERRORS = ['IMPORT_UNSUPPORTED', 'IMPORT_INVALID', 'IMPORT_BUSY', 'MISSING_FIELD', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INVALID_BOT', 'BOT_FILE_BUSY'] as const;

const accountOf = (request: FastifyRequest): AccountRecord => (request.principal as { account: AccountRecord }).account;

function uploadOf(request: FastifyRequest): { upload: ImportUpload; options: ImportOptions } {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the export as multipart/form-data, in the field `file`.');
  const { file, Format, Name } = request.body as UploadFields;
  if (!file) throw new AppError('MISSING_FIELD', 'Upload one file in the form field `file`.', { Field: 'file' });
  return { upload: { fileName: file.fileName, data: file.data }, options: { ...(Format ? { format: Format as ImportFormat } : {}), ...(Name !== undefined ? { name: Name } : {}) } };
}

export function importRoutes(app: App, s: Services): void {
  /** Both previews (account token, console session) answer the same. */
  const previewOf = async (request: FastifyRequest) => {
    const { upload, options } = uploadOf(request);
    const preview = await s.imports.preview(upload, options);
    return { Format: preview.format, Bot: preview.bot, Report: preview.report };
  };
  // typed loosely, as the knowledge routes' multipart bodies are: the provider cannot type a content map
  const schema: Record<string, unknown> = { tags: ['bots'], security: [{ bearer: [] }], body: ImportBodies };
  app.register(async (scope: App) => {
    await acceptUploads(scope, { fields: ['Format', 'Name'], what: 'An import' });
    scope.post(
      '/bots/import',
      {
        ...authed('account'),
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: { ...schema, summary: 'Create a bot from a Typebot, Rasa or Dialogflow ES export', response: { 201: ImportedBot }, errors: [...IMPORT_ERRORS, 'LIMIT_EXCEEDED', ...TRAINING_ERRORS] },
      },
      async (request, reply) => {
        const { upload, options } = uploadOf(request);
        const made = await s.imports.create(accountOf(request), upload, options);
        return reply.status(201).send({ APIKey: made.record.apiKey, APISecret: made.record.apiSecret, Name: made.record.name, Format: made.format, Version: made.record.version, Report: made.report });
      },
    );
    scope.post(
      '/bots/import/preview',
      {
        ...authed('account'),
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: { ...schema, summary: 'The bot file an export makes and its report; nothing is created', response: { 200: ImportPreview }, errors: [...IMPORT_ERRORS] },
      },
      previewOf,
    );
  });

  const design = operatorSignIn(app, s, 'design');
  const consoleSchema = { hide: true, tags: ['operator console'], body: ImportBodies };
  app.register(async (scope: App) => {
    await acceptUploads(scope, { fields: ['Format', 'Name'], what: 'An import' });
    scope.post(
      '/console/api/bots/import',
      {
        ...design,
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          ...consoleSchema,
          summary: 'A new bot from an export, published at once',
          response: { 201: ConsoleImportedBot },
          errors: [...IMPORT_ERRORS, 'LIMIT_EXCEEDED', ...TRAINING_ERRORS, ...SESSION_ERRORS],
        },
      },
      async (request, reply) => {
        const { upload, options } = uploadOf(request);
        const made = await s.imports.create(request.operatorContext!.account, upload, options);
        return reply.status(201).send({ BotId: made.record.id, Name: made.record.name, Published: made.record.liveVersionId !== null, Format: made.format, Report: made.report });
      },
    );
    scope.post(
      '/console/api/bots/import/preview',
      {
        ...design,
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: { ...consoleSchema, summary: 'The bot file an export makes and its report; nothing is created', response: { 200: ImportPreview }, errors: [...IMPORT_ERRORS, ...SESSION_ERRORS] },
      },
      previewOf,
    );
  });
}
