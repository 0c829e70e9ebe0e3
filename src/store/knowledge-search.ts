// The full-text search over a bot's passages (knowledge.md "Search"): SQLite FTS5 or PostgreSQL
// text search only FIND the candidates of a question and count how many passages hold each word;
// knowledge/ranking.ts ranks them. Terms reach the database only as data: each quoted as one FTS5
// phrase (never a MATCH operator of the user's), or bound one parameter each into plainto_tsquery.
import type { Candidates, FoundPassage } from '../knowledge/model.js';
import type { Queryable } from './driver.js';

/** PostgreSQL's text search configuration for a bot's nlp.language; `simple` (no stemming) for any other. */
const PG_CONFIGS: Record<string, string> = { en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch' };
export const pgConfigOf = (language: string): string => PG_CONFIGS[language] ?? 'simple';

/** Passages counted per term for its weight: past it a word is simply common (a bounded count on both databases). */
const FREQUENCY_CAP = 1_000;

/** An FTS5 string: any text between double quotes is one phrase of the tokenizer's tokens, `""` a quote. */
const quoted = (term: string): string => `"${term.split('"').join('""')}"`;

type Row = { id: number; source_id: string; name: string; url: string | null; heading: string; text: string };

export function knowledgeSearch(db: Queryable) {
  /**
   * The ids of the bot's ready passages holding the term bound at $n ($1 the bot, $2 the text
   * search configuration). SQLite: the term as one FTS5 phrase in heading and text, the bot's rows
   * by the join on c.bot_id, not by its id's phrase in the bot_id column (a phrase of the bot's id
   * made each match walk all of the bot's passages: docs/decisions.md "Knowledge").
   */
  const matching = (n: number): string =>
    db.dialect === 'postgres'
      ? `SELECT m.id FROM knowledge_chunks m JOIN knowledge_sources ms ON ms.id = m.source_id AND ms.status = 'ready'
         WHERE m.bot_id = $1 AND m.tsv @@ plainto_tsquery($2::regconfig, $${n})`
      : `SELECT m.id FROM knowledge_fts JOIN knowledge_chunks m ON m.id = knowledge_fts.rowid JOIN knowledge_sources ms ON ms.id = m.source_id AND ms.status = 'ready'
         WHERE knowledge_fts MATCH $${n} AND m.bot_id = $1`;
  /** A term as bound: an FTS5 phrase in heading and text on SQLite, the word itself for plainto_tsquery. */
  const termParam = (term: string): string => (db.dialect === 'postgres' ? term : `{heading text} : ${quoted(term)}`);

  return {
    /**
     * What knowledge search ranks (knowledge/word-search.ts ranks, not the database): the bot's
     * passages sharing at least one of `terms` (stop words already dropped; none finds nothing), at
     * most `cap`, chosen fairly: the passages of the rarest words first, so that a common word in
     * thousands of passages cannot push out the few holding the question's telling word; and, for
     * the words' weights, how many passages hold each term (counted up to FREQUENCY_CAP) and how
     * many the bot has.
     */
    async candidates(botId: string, terms: readonly string[], language: string, cap: number): Promise<Candidates> {
      if (terms.length === 0) return { passages: [], frequencies: new Map(), passageCount: 0 };
      const config = pgConfigOf(language);
      const counts = await db.get<Record<string, number>>(
        `SELECT ${terms.map((_, i) => `(SELECT COUNT(*) FROM (${matching(i + 3)} LIMIT ${FREQUENCY_CAP}) f${i}) AS n${i}`).join(', ')},
           (SELECT COALESCE(SUM(chunks), 0) FROM knowledge_sources WHERE bot_id = $1 AND status = 'ready') AS total`,
        [botId, config, ...terms.map(termParam)],
      );
      const frequencies = new Map(terms.map((t, i) => [t, Number(counts?.[`n${i}`] ?? 0)]));
      // rarest first: the words whose passages all fit go in one query; the others fill what room is left
      const byRarity = terms
        .map((t, i) => ({ i, n: frequencies.get(t)! }))
        .filter((t) => t.n > 0)
        .sort((a, b) => a.n - b.n || a.i - b.i);
      const rare: number[] = [];
      let room = cap;
      for (const t of byRarity) {
        if (rare.length > 0 && t.n > room) break;
        rare.push(t.i);
        room -= t.n;
      }
      const common = byRarity.map((t) => t.i).filter((i) => !rare.includes(i));
      const found = new Map<number, FoundPassage>();
      for (const group of [rare, common]) {
        if (group.length === 0 || found.size >= cap) continue;
        const rows = await db.all<Row>(
          `SELECT c.id, c.source_id, s.name, s.url, c.heading, c.text FROM knowledge_chunks c JOIN knowledge_sources s ON s.id = c.source_id
           WHERE c.id IN (${group.map((_, k) => matching(k + 4)).join(' UNION ')}) ORDER BY c.id LIMIT $3`,
          [botId, config, cap, ...group.map((i) => termParam(terms[i]))],
        );
        for (const r of rows)
          if (found.size < cap) found.set(Number(r.id), { chunkId: Number(r.id), sourceId: r.source_id, sourceName: r.name, sourceUrl: r.url, heading: r.heading, text: r.text, score: 0 });
      }
      return { passages: [...found.values()], frequencies, passageCount: Number(counts?.total ?? 0) };
    },
  };
}
