// npx tsx bench/store-binding.ts: what the store's parameter binding (src/store/driver.ts
// `storable`: NUL and lone surrogates become U+FFFD) costs per chat turn, against the binding
// before it (SQLite: a NUL check that threw; PostgreSQL: the values as given). The parameters are
// those of a turn's one statement (turn-in-one-statement.ts) with a 2 KB state and two messages;
// then the same with a state of 64 KB and a text holding an emoji (not a lone surrogate), and the
// rare slow path: a 64 KB state whose variable holds a NUL (its JSON is parsed and written again).
import { storable, type SqlValue } from '../src/store/driver.js';

const oldSqlite = (v: SqlValue) => {
  if (typeof v === 'string' && v.includes('\u0000')) throw new Error('NUL');
  return v;
};
const oldPostgres = (v: SqlValue) => v;

function turnParams(stateBytes: number, text: string): SqlValue[] {
  const state = { variables: { name: 'Ann', plan: 'gold', last: text, note: 'x'.repeat(stateBytes) }, position: { behaviour: 'Main', interaction: 'Ask' } };
  const messages = [
    { n: 0, direction: 'user', parts: JSON.stringify([{ Type: 'text', Text: text }]), pending: 0 },
    { n: 1, direction: 'bot', parts: JSON.stringify([{ Type: 'text', Text: `You said: ${text}` }]), pending: 0 },
  ];
  return ['conv-1', JSON.stringify(state), 0, null, null, null, 0, 'web', Date.now(), 7, 2, 200, 1000, 100000, JSON.stringify(messages), 'acc-1', '2026-11', 1, 1, 0, 0, 1, 0, 0, '[]', -1];
}

function time(label: string, params: SqlValue[], bind: (v: SqlValue) => SqlValue, rounds: number): number {
  for (let i = 0; i < rounds / 10; i++) params.map(bind); // warm-up
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < rounds; i++) sink += params.map(bind).length;
  const ns = Number(process.hrtime.bigint() - start) / rounds;
  console.log(`${label.padEnd(44)} ${(ns / 1000).toFixed(2).padStart(8)} µs per turn${sink < 0 ? '' : ''}`);
  return ns;
}

for (const [name, params, rounds] of [
  ['2 KB state, ASCII text', turnParams(2_000, 'where is my parcel?'), 200_000],
  ['64 KB state, emoji text', turnParams(64_000, 'where is my parcel? 📦'), 20_000],
  ['64 KB state with a NUL (slow path)', turnParams(64_000, 'where is\u0000 my parcel?'), 2_000],
] as const) {
  if (name.includes('NUL')) {
    console.log(name);
    time('  after, both (storable)', [...params], storable, rounds);
    continue;
  }
  console.log(name);
  time('  before, PostgreSQL (values as given)', [...params], oldPostgres, rounds);
  time('  before, SQLite (NUL check)', [...params], oldSqlite, rounds);
  time('  after, both (storable)', [...params], storable, rounds);
}
