// One words search, profiled: fills a bot as bench/knowledge.ts does (MB of text across 200 sources,
// SQLite), then times the store's search alone (no HTTP, no queueing) for a few kinds of question.
// `npx tsx bench/knowledge-profile.ts 10` (MB; KEEP=1 keeps the data folder to query it by hand)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { searchTerms } from '../src/knowledge/terms.js';
import { searchByWords } from '../src/knowledge/word-search.js';
import { filler } from './knowledge.js';
import { ADMIN_TOKEN, call, createTenant } from './setup.js';

const MB = Number(process.argv[2] ?? '10');
const SOURCES = 200;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'colloquy-kb-profile-'));
const running = await start(loadConfig({ PORT: '0', HOST: '127.0.0.1', COLLOQUY_DATA_DIR: dataDir, COLLOQUY_DEMO: '0', COLLOQUY_ADMIN_TOKEN: ADMIN_TOKEN, COLLOQUY_RATE_LIMIT_PER_MINUTE: '0' }));
try {
  const base = running.url;
  const tenant = await createTenant(base);
  const token = (await call(base, 'POST', '/authorization/integration', { AccountAPIKey: tenant.accountKey })).token;
  const kb = `/bots/${tenant.botKey}/knowledge`;
  const per = Math.floor((MB * 1024 * 1024) / SOURCES);
  for (let i = 0; i < SOURCES; i++) await call(base, 'POST', kb, { Name: `Doc ${i}`, Text: filler(i, per) }, token);
  const db = new Database(path.join(dataDir, 'colloquy.sqlite'), { readonly: true });
  const bot = db.prepare('SELECT bot_id FROM knowledge_chunks LIMIT 1').get() as { bot_id: string };
  console.log('passages', (db.prepare('SELECT count(*) AS n FROM knowledge_chunks').get() as { n: number }).n);
  const questions = ['can dogs fly in the cabin in a crate', 'rule12r3r4 item12', 'clause part sets rule', 'heavy luggage fee'];
  for (const q of questions) {
    const terms = searchTerms(q, 'en');
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      found = (await searchByWords((...a) => running.store.knowledge.candidates(...a), bot.bot_id, terms, 'en', 50)).length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({ q, terms, found, p50ms: Math.round(times[15] * 100) / 100, maxMs: Math.round(times[29] * 100) / 100 }));
  }
  db.close();
} finally {
  await running.close();
  if (!process.env.KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log('kept', dataDir);
}
