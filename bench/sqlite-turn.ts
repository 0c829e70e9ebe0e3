// Not part of `npm run bench`: what a chat turn's SQL costs in SQLite alone (better-sqlite3
// called directly, no driver, no HTTP), next to the baseline's read-modify-write, and how much a
// few schema or batching changes would save. On the real schema (the store's migrations).
//   npx tsx bench/sqlite-turn.ts [turns]
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SQLITE_MESSAGE_WORDS } from '../src/store/migrations/019-console-inbox.js';
import { migrations } from '../src/store/migrations/index.js';

const TURNS = Number(process.argv[2] ?? 20_000);
// CPU time of this process (better-sqlite3 works on the calling thread), not wall time: other
// processes on a shared machine change the wall clock far more than the CPU a statement costs.
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const CONVERSATIONS = 1000;

function open(dir: string): Database.Database {
  const db = new Database(path.join(dir, 'x.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  for (const m of migrations) db.exec(m.sqlite);
  return db;
}

const state = (user: string, n: number) =>
  JSON.stringify({
    position: { behaviour: 'Main', interaction: 'Echo' },
    previous: { behaviour: 'Main', interaction: 'Echo' },
    bookmark: null,
    variables: { count: String(n), user_id: user, channel: 'custom', creation_date: '2026-11-22T10:15:03.123+00:00', last_user_text: 'Where is my order?' },
    tags: [],
    privacy: {},
    waiting: null,
  });
const part = (type: number, text: string) => ({ Type: type, Text: text, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Echo', Parts: [] });
const userParts = JSON.stringify([part(19, 'Where is my order?')]);
const botParts = JSON.stringify([part(0, 'You said: Where is my order?'), part(0, 'That makes 12 messages.')]);

interface Variant {
  name: string;
  /** schema changes before the run */
  prepare?: (db: Database.Database) => void;
  usage?: boolean;
  messages?: boolean;
  foreignKeys?: boolean;
  /** turns per transaction */
  group?: number;
  /** work done every `every.turns` turns, in a transaction of its own (counted in the cost) */
  every?: { turns: number; run: (db: Database.Database) => void };
}

function runTurns(v: Variant): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-turn-'));
  const db = open(dir);
  try {
    db.exec(`INSERT INTO accounts (id, name, plan, packages, api_key_hash, created_at) VALUES ('a', 'A', 'standard', '[]', 'ak', 0);
      INSERT INTO bots (id, account_id, api_key, api_secret, secret_version, web_key, name, description, avatar, settings, draft, version,
        live_version_id, role, master_bot_id, created_at, updated_at) VALUES ('b', 'a', 'bk', 's', 1, 'wk', 'B', '', '', '{}', '{}', 1, NULL, 'standard', NULL, 0, 0)`);
    v.prepare?.(db);
    if (v.foreignKeys === false) db.pragma('foreign_keys = OFF');
    const insertConversation = db.prepare(
      `INSERT INTO conversations (bot_id, user_id, channel, state, control_state, forgetting, revision, created_at, updated_at) VALUES ('b', ?, 'custom', ?, 0, 0, 0, 0, 0)`,
    );
    db.transaction(() => {
      for (let i = 0; i < CONVERSATIONS; i++) insertConversation.run(`u${i}`, state(`u${i}`, 0));
    })();
    const byUser = db.prepare('SELECT * FROM conversations WHERE bot_id = ? AND user_id = ?');
    const save = db.prepare(`UPDATE conversations SET state = ?, control_state = 0, operator = NULL, ban_expiration = NULL, ban_message = NULL,
      forgetting = 0, channel = 'custom', revision = revision + 1, updated_at = ? WHERE id = ? AND revision = ?`);
    const append = db.prepare('INSERT INTO messages (conversation_id, direction, parts, pending, created_at) VALUES (?, ?, ?, 0, ?)');
    const usage = db.prepare(`INSERT INTO usage (account_id, month, messages, replies, notifications, api_calls) VALUES ('a', '2026-11', 1, 1, 0, 0)
      ON CONFLICT (account_id, month) DO UPDATE SET messages = usage.messages + 1, replies = usage.replies + 1`);
    const write = (row: { id: number; revision: number; user_id: string }, n: number) => {
      save.run(state(row.user_id, n), Date.now(), row.id, row.revision);
      if (v.messages !== false) {
        append.run(row.id, 'USER', userParts, Date.now());
        append.run(row.id, 'BOT', botParts, Date.now());
      }
      if (v.usage !== false) usage.run();
    };
    const group = v.group ?? 1;
    const batch = db.transaction((rows: Array<{ id: number; revision: number; user_id: string }>, n: number) => rows.forEach((r) => write(r, n)));
    let n = 0;
    const started = cpuMicros();
    while (n < TURNS) {
      const rows = [];
      for (let k = 0; k < group; k++, n++) rows.push(byUser.get('b', `u${n % CONVERSATIONS}`) as { id: number; revision: number; user_id: string });
      batch.immediate(rows, n);
      if (v.every && n % v.every.turns < group) db.transaction(() => v.every!.run(db)).immediate();
    }
    return (cpuMicros() - started) / TURNS;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runBaseline(): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-sqlite-turn-'));
  const db = new Database(path.join(dir, 'b.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, updated_at INTEGER NOT NULL)');
    const seed = db.prepare('INSERT INTO counters VALUES (?, 0, 0)');
    db.transaction(() => {
      for (let i = 0; i < CONVERSATIONS; i++) seed.run(i);
    })();
    const read = db.prepare<[number], { n: number }>('SELECT n FROM counters WHERE id = ?');
    const write = db.prepare('UPDATE counters SET n = ?, updated_at = ? WHERE id = ?');
    const bump = db.transaction((id: number) => write.run(read.get(id)!.n + 1, Date.now(), id));
    const started = cpuMicros();
    for (let i = 0; i < TURNS; i++) bump.immediate(Math.floor(Math.random() * CONVERSATIONS));
    return (cpuMicros() - started) / TURNS;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const variants: Variant[] = [
  { name: 'turn SQL as the store runs it (1 read + tx: update, 2 inserts, usage upsert)' },
  {
    name: '  … with messages_pending as a partial index (WHERE pending = 1)',
    prepare: (db) => db.exec('DROP INDEX messages_pending; CREATE INDEX messages_pending ON messages(conversation_id) WHERE pending = 1'),
  },
  { name: '  … without the per-turn usage upsert', usage: false },
  { name: '  … without the two history inserts', messages: false },
  { name: '  … only the conversation read + update (no history, no usage)', messages: false, usage: false },
  { name: '  … with foreign_keys off', foreignKeys: false },
  { name: '  … without the message-search trigger (FTS5, migration 19)', prepare: (db) => db.exec('DROP TRIGGER message_search_insert') },
  { name: '  … without the control-state triggers (migration 21)', prepare: (db) => db.exec('DROP TRIGGER conversations_state_changed; DROP TRIGGER conversations_state_created') },
  {
    name: '  … messages indexed in batches after every 500 turns instead of by the trigger',
    prepare: (db) => db.exec('DROP TRIGGER message_search_insert; CREATE TABLE w (last INTEGER); INSERT INTO w VALUES (0)'),
    every: {
      turns: 500,
      run: (db) => {
        db.exec(`INSERT INTO message_search(rowid, body) SELECT m.id, ${SQLITE_MESSAGE_WORDS('m')} FROM messages m WHERE m.id > (SELECT last FROM w) ORDER BY m.id`);
        db.exec('UPDATE w SET last = (SELECT max(id) FROM messages)');
      },
    },
  },
  { name: '  … without both', prepare: (db) => db.exec('DROP TRIGGER message_search_insert; DROP TRIGGER conversations_state_changed; DROP TRIGGER conversations_state_created') },
  { name: '  … (diagnostic) no auto-checkpoint during the run', prepare: (db) => db.pragma('wal_autocheckpoint = 0') },
  { name: '  … (diagnostic) synchronous = OFF: no fsync at checkpoints', prepare: (db) => db.pragma('synchronous = OFF') },
  { name: '  … 8 turns per transaction (group commit)', group: 8 },
];

// The best of three runs: other processes on the machine only ever make a run slower.
const best = (run: () => number) => Math.min(run(), run(), run());
process.stdout.write(`SQLite cost per operation, best of 3 runs of ${TURNS} on ${CONVERSATIONS} rows/conversations (µs of CPU, lower is better)\n`);
process.stdout.write(`  ${best(runBaseline).toFixed(1).padStart(7)}  baseline read-modify-write transaction\n`);
for (const v of variants)
  process.stdout.write(
    `  ${best(() => runTurns(v))
      .toFixed(1)
      .padStart(7)}  ${v.name}\n`,
  );
