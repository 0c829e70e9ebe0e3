// The knowledge routes' bodies and answers (knowledge.md), for validation and for /docs.
import { Type } from 'typebox';
import { Nullable } from './wire-schemas.js';

/** The longest question: ample for any chat message; search cost grows with it. */
export const MAX_QUESTION_CHARS = 4_096;

export const SourceBody = Type.Object(
  {
    Name: Type.Optional(Type.String({ maxLength: 200, description: 'how answers name the source' })),
    Text: Type.Optional(Type.String({ description: 'plain text or Markdown (# headings title the passages under them)' })),
    Html: Type.Optional(Type.String({ description: 'an HTML page: reduced to its readable text, headings kept' })),
    Url: Type.Optional(Type.String({ maxLength: 2048, description: 'an http(s) page (HTML, text, PDF or DOCX), fetched once through the private-network guard' })),
    Faq: Type.Optional(
      Type.Array(Type.Object({ Question: Type.String(), Answer: Type.String() }, { additionalProperties: false }), {
        minItems: 1,
        description: 'each pair is one passage (more for a long answer); at most 1,000 pairs, a question of 1,000 characters and an answer of 10,000, none empty',
      }),
    ),
  },
  { additionalProperties: false, description: 'exactly one of Text, Html, Faq, Url; at most 10 MiB' },
);

/** The same source as a file: multipart/form-data (http/uploads.ts reads the parts into this). */
export const UploadBody = Type.Object(
  {
    Name: Type.Optional(Type.String({ maxLength: 200, description: "how answers name the source (default the file's name)" })),
    file: Type.Unsafe<unknown>({ contentMediaType: 'application/octet-stream', description: '.txt, .md, .html, .pdf or .docx (by its name), at most 10 MiB' }),
  },
  { additionalProperties: false, required: ['file'] },
);

/** POST and PUT of a source: JSON or an upload. */
export const SourceBodies = { content: { 'application/json': { schema: SourceBody }, 'multipart/form-data': { schema: UploadBody } } };

export const SearchBody = Type.Object(
  {
    Text: Type.String({ maxLength: MAX_QUESTION_CHARS }),
    Limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'default 5' })),
  },
  { additionalProperties: false },
);
export const AskBody = Type.Object({ Text: Type.String({ maxLength: MAX_QUESTION_CHARS }) }, { additionalProperties: false });

const SourceFields = {
  SourceId: Type.String(),
  Name: Type.String(),
  Kind: Type.Union([Type.Literal('text'), Type.Literal('html'), Type.Literal('faq'), Type.Literal('url'), Type.Literal('pdf'), Type.Literal('docx')]),
  Url: Nullable(Type.String({ description: 'where a Url source was fetched from' })),
  Status: Type.Union([Type.Literal('ready'), Type.Literal('indexing'), Type.Literal('failed')]),
  Chunks: Type.Integer({ description: 'passages' }),
  Bytes: Type.Integer({ description: 'UTF-8 bytes of the document as sent' }),
  UpdatedAt: Type.String({ description: 'ISO 8601, UTC' }),
  Error: Nullable(Type.String({ description: 'why indexing failed' })),
  Embedded: Type.Integer({
    minimum: 0,
    description: "passages with a vector of the bot's current embedding model (0 without one); they are embedded after indexing, and until then found by their words",
  }),
};
export const Source = Type.Object(SourceFields);
export const Sources = Type.Object({ Result: Type.Array(Source, { description: 'newest first' }) });
export const SourceWithPassages = Type.Object({
  ...SourceFields,
  Faq: Type.Optional(
    Type.Array(Type.Object({ Question: Type.String(), Answer: Type.String() }), {
      description: 'an FAQ source only: its pairs as written (trimmed), in order; PUT them back edited to change the FAQ',
    }),
  ),
  Passages: Type.Array(Type.Object({ ChunkId: Type.Integer(), Heading: Type.String(), Text: Type.String() }), { description: 'in document order' }),
});
export const SearchResults = Type.Object({
  Result: Type.Array(
    Type.Object({
      SourceId: Type.String(),
      SourceName: Type.String(),
      ChunkId: Type.Integer(),
      Heading: Type.String(),
      Text: Type.String(),
      Score: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'how well the passage matches the question, 0..1 (knowledge.md "Search"): the share of its words, weighed by rarity, fused with meaning when the bot has an embedding model',
      }),
    }),
    { description: 'best first' },
  ),
});
export const KnowledgeAnswer = Type.Object({
  Status: Type.Union([Type.Literal('ANSWERED'), Type.Literal('NO_ANSWER'), Type.Literal('ERROR'), Type.Literal('TIMEOUT')]),
  Answer: Nullable(Type.String()),
  Sources: Type.Array(Type.Object({ SourceId: Type.String(), SourceName: Type.String(), ChunkId: Type.Integer() })),
  Score: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "the best passage's score; null when search found nothing" })),
  MinScore: Type.Number({ minimum: 0, maximum: 1, description: "the bot's minimum (knowledge.minScore): below it the answer is NO_ANSWER" }),
});
