// An import refused, in plain words beside the file field (importers.md: IMPORT_UNSUPPORTED,
// IMPORT_INVALID with the file and the path in the export, PAYLOAD_TOO_LARGE past 10 MiB).
import { ApiError } from '../shared/api-client';

/** importers.md: the upload's own limit, checked here too so a large file is not sent for nothing. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const TOO_LARGE = 'This file is larger than 10 MiB, the most an import takes. Leave out what is not part of the export (models, logs) and try again.';

/** Where in the export the server says the fault is: `domain.yml, at $.responses`. */
function where(body: Record<string, unknown>): string {
  const file = typeof body.File === 'string' ? body.File : '';
  const path = typeof body.Path === 'string' && body.Path !== '$' ? body.Path : '';
  return file ? ` (in ${file}${path ? `, at ${path}` : ''})` : '';
}

export function importRefusalInWords(error: unknown): string {
  if (!(error instanceof ApiError)) return (error as Error).message;
  const body = error.body as Record<string, unknown>;
  // the server's message starts with the file when it names one: said once, in `where`
  const file = typeof body.File === 'string' ? body.File : '';
  const message = (file && error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message).replace(/\.?$/, '.');
  switch (error.code) {
    case 'IMPORT_UNSUPPORTED':
      return `This file is not an export Colloquy can import: ${message} Export the bot again from Rasa, Dialogflow ES or Typebot, as it is handed out.`;
    case 'IMPORT_INVALID':
      return `${body.Limit ? 'The export is over an import limit' : 'The export is broken'}${where(body)}: ${message}`;
    case 'PAYLOAD_TOO_LARGE':
      return TOO_LARGE;
    case 'IMPORT_BUSY':
      return 'The server is reading other imports just now. Try again in a few seconds.';
    case 'INVALID_BOT':
      return 'The bot this export makes does not pass the bot file checks, so it was not created.';
    default:
      return error.message;
  }
}
