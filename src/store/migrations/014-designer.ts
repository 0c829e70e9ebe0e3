// The designer (issue 23, docs/designer.md):
// - operators.role: what an operator may do in the console; operators that existed keep what
//   they could do, which was conversations only (`agent`);
// - bot_versions.published_by: who published a version (JSON: an operator's id, e-mail and name
//   at that moment, or an account token); NULL for versions from before, and for those a create,
//   clone or a master's republish made;
// - bots.preview_of: a bot's preview twin, the bot row its preview conversations hang off, so that
//   they are apart from the real ones by construction (another bot id) and go with the bot.
// (Versions 12 and 13 are other work of the same round.)
import type { Migration } from './migration.js';

const sql = `
ALTER TABLE operators ADD COLUMN role TEXT NOT NULL DEFAULT 'agent';
ALTER TABLE bot_versions ADD COLUMN published_by TEXT;
ALTER TABLE bots ADD COLUMN preview_of TEXT REFERENCES bots(id) ON DELETE CASCADE;
CREATE INDEX bots_preview_of ON bots(preview_of);
`;

export const designer: Migration = { version: 14, name: 'designer: operator roles, who published, preview twins', sqlite: sql, postgres: sql };
