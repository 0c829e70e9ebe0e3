// Referenced clones (api.md section 10): the behaviours each clone made its own (detached), as a
// JSON list of names, and an index to find a master's clones on every publish of the master.
import type { Migration } from './migration.js';

// The same DDL works on both dialects.
const sql = `
ALTER TABLE bots ADD COLUMN detached_behaviours TEXT NOT NULL DEFAULT '[]';
CREATE INDEX bots_master ON bots(master_bot_id);
`;

export const clones: Migration = { version: 3, name: 'clone links', sqlite: sql, postgres: sql };
