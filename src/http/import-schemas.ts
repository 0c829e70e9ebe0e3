// The import routes' body and answers (importers.md), for validation and for /docs.
import { Type } from 'typebox';
import { IMPORT_FORMATS } from '../importers/model.js';
import { Credentials } from './bot-schemas.js';

/** multipart/form-data (http/uploads.ts reads the parts into this). */
export const ImportBody = Type.Object(
  {
    file: Type.Unsafe<unknown>({ contentMediaType: 'application/octet-stream', description: 'the export: JSON, YAML, .zip or .tar.gz, at most 10 MiB (50 MiB unpacked, 2,000 files)' }),
    Format: Type.Optional(Type.Enum([...IMPORT_FORMATS], { description: 'typebot, rasa or dialogflow; detected when absent' })),
    Name: Type.Optional(Type.String({ maxLength: 200, description: "the bot's name (default: the export's)" })),
  },
  { additionalProperties: false, required: ['file'] },
);
export const ImportBodies = { content: { 'multipart/form-data': { schema: ImportBody } } };

const Entry = Type.Object({
  Path: Type.String({ description: 'the file and the JSON/YAML path in the export' }),
  What: Type.String(),
  Why: Type.String(),
  Interaction: Type.Optional(Type.String({ description: 'the interaction of the bot (behaviour Main) the element belonged to, when there is one: what to finish by hand' })),
});

export const ImportReport = Type.Object({
  Converted: Type.Object({
    Behaviours: Type.Integer(),
    Interactions: Type.Integer(),
    Intents: Type.Integer(),
    Entities: Type.Integer(),
    Variables: Type.Integer(),
    Actions: Type.Integer(),
  }),
  Skipped: Type.Array(Entry, { description: 'every element of the export that was not carried over' }),
  Changed: Type.Array(Entry, { description: 'what was carried over changed: names made valid or unique, and the like' }),
});

const Format = Type.Enum([...IMPORT_FORMATS]);

export const ImportedBot = Type.Object({ ...Credentials.properties, Name: Type.String(), Format, Version: Type.Integer(), Report: ImportReport });
/** The console's answer: the new bot as its bot picker lists it (no credentials: the session needs none). */
export const ConsoleImportedBot = Type.Object({ BotId: Type.String(), Name: Type.String(), Published: Type.Boolean(), Format, Report: ImportReport });
export const ImportPreview = Type.Object({ Format, Bot: Type.Object({}, { additionalProperties: true, description: 'the bot file the import would create' }), Report: ImportReport });
