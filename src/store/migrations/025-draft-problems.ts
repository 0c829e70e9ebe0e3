// A draft with problems can be saved from the console (issue 37 item 6, docs/designer.md
// "Saving"): bots.draft_with_problems holds that draft as it was saved (the whole file, JSON)
// and its problems, apart from `draft`, which stays the last draft without problems. A save
// without problems sets it back to NULL. Kept apart so that nothing that reads `draft` (publish,
// clones, the identity and settings on the row, which take effect at once) ever meets an invalid
// file.
import type { Migration } from './migration.js';

const sql = `ALTER TABLE bots ADD COLUMN draft_with_problems TEXT`;

export const draftProblems: Migration = { version: 25, name: 'drafts saved with their problems', sqlite: sql, postgres: sql };
