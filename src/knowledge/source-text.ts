// A source, an FAQ's pairs and its passages as the JSON of GET /knowledge/{SourceId}, written a page at
// a time (issue 35: reading a source of 90,000 passages built one string of 97 MB on the event
// loop and held it for seconds). The route sends it as a stream; each page is one query and one
// small JSON.stringify, and the loop is free between pages. The passages are those of the
// generation the view was read at: a source replaced meanwhile ends its list there.
import type { FaqPair } from './faq-pairs.js';
import type { StoredPassage } from './model.js';

/** Passages read per query. */
export const PASSAGE_PAGE = 500;

export type PassagePage = (afterPosition: number, limit: number) => Promise<Array<StoredPassage & { position: number }>>;

/** An FAQ's pairs in order, `limit` at a time after `afterPosition` (-1 first). */
export type PairPage = (afterPosition: number, limit: number) => Promise<Array<FaqPair & { position: number }>>;

/** `{...view, "Faq": [...]?, "Passages": [...]}` in pieces, exactly as JSON.stringify would write it whole. */
export async function* sourceJson(view: object, page: PassagePage, pairs: PairPage | null = null): AsyncGenerator<string> {
  yield JSON.stringify(view).slice(0, -1);
  if (pairs !== null) {
    yield ',"Faq":[';
    yield* pieces(pairs, (r) => JSON.stringify({ Question: r.Question, Answer: r.Answer }));
    yield ']';
  }
  yield ',"Passages":[';
  yield* pieces(page, (r) => JSON.stringify({ ChunkId: r.chunkId, Heading: r.heading, Text: r.text }));
  yield ']}';
}

/** A list's items as JSON, a page at a time, comma-separated. */
async function* pieces<T extends { position: number }>(page: (after: number, limit: number) => Promise<T[]>, json: (row: T) => string): AsyncGenerator<string> {
  let position = -1;
  let separator = '';
  for (;;) {
    const rows = await page(position, PASSAGE_PAGE);
    if (rows.length > 0) {
      yield separator + rows.map(json).join(',');
      separator = ',';
      position = rows[rows.length - 1].position;
    }
    if (rows.length < PASSAGE_PAGE) break;
  }
}
