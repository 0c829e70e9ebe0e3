// Analytics events (issue 27, docs/analytics.md "Waiting, first response and CSAT"): what the
// conversation row only keeps as its latest value, dated, one row per change:
// - `state`: every change of a conversation's control state (value: the new state), so a wait for
//   a person (state 1) has a start and an end (the takeover, state 2), however often it recurs;
//   handed_over_at (migration 10) keeps only the first;
// - `csat`: the well-known variable `csat` set to 1..5 (value: the rating) by the bot.
// Written by triggers on conversations, so every path that saves a conversation (the engine's
// turns, the console, the PostgreSQL one-statement turn, the SQLite group commit) records them
// without a second write in the code, and a turn that changes neither pays one comparison. The
// csat trigger looks for the text "csat" before parsing the state JSON. Rows go with their
// conversation (ON DELETE CASCADE): a forgotten user is no longer counted, as with messages.
// (Versions 16-20 are other branches'.)
import type { Migration } from './migration.js';

const table = (t: { id: string; big: string }) => `
CREATE TABLE analytics_events (
  id ${t.id},
  conversation_id ${t.big} NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  value INTEGER NOT NULL,
  at ${t.big} NOT NULL
);
CREATE INDEX analytics_events_bot ON analytics_events(bot_id, kind, at);
CREATE INDEX analytics_events_conversation ON analytics_events(conversation_id, id);
`;

const insertState = `INSERT INTO analytics_events (conversation_id, bot_id, kind, value, at) VALUES (NEW.id, NEW.bot_id, 'state', NEW.control_state, COALESCE(NEW.control_changed_at, NEW.updated_at))`;
const sqliteCsat = `json_extract(NEW.state, '$.variables.csat')`;
const pgCsat = (row: 'NEW' | 'OLD') => `(${row}.state::json -> 'variables' ->> 'csat')`;
const RATINGS = `('1', '2', '3', '4', '5')`;

// Statements are split on ";" at a line's end, so each trigger stays on one line.
const sqlite = `${table({ id: 'INTEGER PRIMARY KEY AUTOINCREMENT', big: 'INTEGER' })}
CREATE TRIGGER conversations_state_changed AFTER UPDATE OF control_state ON conversations WHEN NEW.control_state <> OLD.control_state BEGIN ${insertState}; END;
CREATE TRIGGER conversations_state_created AFTER INSERT ON conversations WHEN NEW.control_state <> 0 BEGIN ${insertState}; END;
CREATE TRIGGER conversations_csat_set AFTER UPDATE OF state ON conversations WHEN instr(NEW.state, '"csat"') > 0 AND ${sqliteCsat} IN ${RATINGS} AND ${sqliteCsat} IS NOT json_extract(OLD.state, '$.variables.csat') BEGIN INSERT INTO analytics_events (conversation_id, bot_id, kind, value, at) VALUES (NEW.id, NEW.bot_id, 'csat', CAST(${sqliteCsat} AS INTEGER), NEW.updated_at); END;
`;

const postgres = `${table({ id: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', big: 'BIGINT' })}
CREATE FUNCTION colloquy_state_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${insertState}; RETURN NULL; END $$;
CREATE TRIGGER conversations_state_changed AFTER UPDATE OF control_state ON conversations FOR EACH ROW WHEN (NEW.control_state <> OLD.control_state) EXECUTE FUNCTION colloquy_state_event();
CREATE TRIGGER conversations_state_created AFTER INSERT ON conversations FOR EACH ROW WHEN (NEW.control_state <> 0) EXECUTE FUNCTION colloquy_state_event();
CREATE FUNCTION colloquy_csat_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO analytics_events (conversation_id, bot_id, kind, value, at) VALUES (NEW.id, NEW.bot_id, 'csat', ${pgCsat('NEW')}::integer, NEW.updated_at); RETURN NULL; END $$;
CREATE TRIGGER conversations_csat_set AFTER UPDATE OF state ON conversations FOR EACH ROW WHEN (position('"csat"' in NEW.state) > 0 AND ${pgCsat('NEW')} IN ${RATINGS} AND ${pgCsat('NEW')} IS DISTINCT FROM ${pgCsat('OLD')}) EXECUTE FUNCTION colloquy_csat_event();
`;

export const analyticsEvents: Migration = { version: 21, name: 'analytics events: control-state changes and CSAT answers', sqlite, postgres };
