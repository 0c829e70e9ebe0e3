// The database's size table by table (indexes counted with their table), read at the start and
// the end of a soak, so that its growth can be told apart: what is bounded per conversation or by a
// retention window (histories, the outbox), and what would grow without bound (what the soak is for).
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

export type TableSizes = Map<string, { bytes: number; rows: number }>;

export async function tableSizes(dataDir: string, databaseUrl: string | null): Promise<TableSizes> {
  const sizes: TableSizes = new Map();
  if (databaseUrl === null) {
    const db = new Database(path.join(dataDir, 'colloquy.sqlite'), { readonly: true, fileMustExist: true });
    try {
      // dbstat names each b-tree; an index's pages are counted with the table it indexes
      const owners = new Map<string, string>();
      for (const o of db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')").all() as Array<{ name: string; tbl_name: string }>) owners.set(o.name, o.tbl_name);
      for (const r of db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{ name: string; bytes: number }>) {
        const table = owners.get(r.name) ?? r.name;
        const entry = sizes.get(table) ?? { bytes: 0, rows: 0 };
        entry.bytes += Number(r.bytes);
        sizes.set(table, entry);
      }
      for (const [table, entry] of sizes) {
        if (!/^[a-z_0-9]+$/.test(table) || table.startsWith('sqlite_')) continue;
        try {
          entry.rows = Number((db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n);
        } catch {
          // a virtual table's shadow tables are counted by their own rows
        }
      }
    } finally {
      db.close();
    }
    return sizes;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: string; rows: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reltuples::bigint AS rows
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind = 'r' AND n.nspname = current_schema()`,
    );
    for (const r of rows) sizes.set(r.name, { bytes: Number(r.bytes), rows: Math.max(0, Number(r.rows)) });
  } finally {
    await client.end();
  }
  return sizes;
}

/** The tables that grew most, as lines: "messages +9.3 MB (12,000 → 30,000 rows)". */
export function growthLines(before: TableSizes, after: TableSizes, top = 8): string[] {
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  return [...after]
    .map(([name, end]) => ({ name, end, start: before.get(name) ?? { bytes: 0, rows: 0 } }))
    .filter((t) => t.end.bytes !== t.start.bytes)
    .sort((a, b) => b.end.bytes - b.start.bytes - (a.end.bytes - a.start.bytes))
    .slice(0, top)
    .map((t) => `${t.name} ${t.end.bytes >= t.start.bytes ? '+' : ''}${mb(t.end.bytes - t.start.bytes)} MB (${t.start.rows.toLocaleString('en')} → ${t.end.rows.toLocaleString('en')} rows)`);
}
