// The answers of the bot routes (api.md "Bots", docs/designer.md): lists, creation, edits, drafts,
// versions and their diffs, deletion and clones' detachment; for /docs and the tests' response checks
// like the rest of wire-schemas.ts.
import { Type } from 'typebox';
import { Nullable, Timestamp } from './wire-schemas.js';

export const BotFile = Type.Object({}, { additionalProperties: true, description: 'A bot file (bot-format.md); its JSON Schema is GET /schema/bot.json' });
export const BotList = Type.Object({
  Result: Type.Array(
    Type.Object({
      Name: Type.String(),
      Description: Type.String(),
      APIKey: Type.String(),
      APISecret: Type.String(),
      WebKey: Type.String({ description: 'The public key of the web chat widget' }),
      Avatar: Type.String(),
      Channels: Type.Array(Type.String()),
      Version: Type.Integer(),
      Role: Type.String({ description: 'standard, master or clone' }),
      MasterAPIKey: Nullable(Type.String()),
    }),
  ),
});
export const Credentials = Type.Object({ APIKey: Type.String(), APISecret: Type.String() });
export const CreatedBot = Type.Object({ ...Credentials.properties, Version: Type.Integer() });
export const EditedBot = Type.Object({
  APIKey: Type.String(),
  Version: Type.Integer(),
  Clones: Type.Optional(
    Type.Array(
      Type.Object(
        { APIKey: Type.String(), Version: Type.Integer(), Published: Type.Boolean(), Code: Type.Optional(Type.String()), Message: Type.Optional(Type.String()) },
        { additionalProperties: true },
      ),
      { description: "A master's publish or rollback: what became of each referenced clone" },
    ),
  ),
});
/** What is wrong with a draft the console keeps anyway (docs/designer.md "Saving"): the field's JSONPath and a plain message. */
const DraftProblems = Type.Array(Type.Object({ Path: Type.String(), Message: Type.String() }), { description: 'empty when the draft has no problems; Publish is refused while it has any' });
/** The console's save of a draft: kept even with problems, which it lists. */
export const SavedDraft = Type.Object({ APIKey: Type.String(), Version: Type.Integer(), Problems: DraftProblems });
/** The problems of the console's draft at a version. */
export const DraftProblemList = Type.Object({ Version: Type.Integer(), Problems: DraftProblems });
const Publisher = Type.Union([Type.Object({ Kind: Type.Literal('operator'), OperatorId: Type.String(), Email: Type.String(), Name: Type.String() }), Type.Object({ Kind: Type.Literal('account') })], {
  description: 'Who published: a signed-in operator (as they were then) or an account token',
});
export const Versions = Type.Object({
  Result: Type.Array(
    Type.Object({
      Version: Type.Integer(),
      PublishedAt: Timestamp,
      PublishedBy: Type.Union([Publisher, Type.Null()], { description: 'null for versions published before this was kept, and for creates, clones and a master republishing its clones' }),
    }),
  ),
});
export const BotDiff = Type.Object({
  From: Type.Integer(),
  To: Type.Union([Type.Integer(), Type.Literal('draft')]),
  Changes: Type.Array(
    Type.Object({
      Path: Type.String({ description: 'JSON pointer into the bot file: the `to` file for added and changed, the `from` file for removed (docs/designer.md)' }),
      Kind: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
      Before: Type.Optional(Type.Unknown()),
      After: Type.Optional(Type.Unknown()),
      Behaviour: Type.Optional(Type.String({ description: 'the behaviour the change is in (or is), by name' })),
      Interaction: Type.Optional(Type.String({ description: 'the interaction the change is in (or is), by name' })),
    }),
  ),
});
export const DeletedBot = Type.Object({ APIKey: Type.String(), Deleted: Type.Literal(true) });
export const DetachedBehaviour = Type.Object({ APIKey: Type.String(), Version: Type.Integer(), Detached: Type.Array(Type.String(), { description: 'Every behaviour the clone has detached so far' }) });
