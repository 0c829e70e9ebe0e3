// A source and its passages as the JSON of GET /knowledge/{SourceId}, written a page of passages at
// a time (issue 35: reading a source of 90,000 passages built one string of 97 MB on the event
// loop and held it for seconds). The route sends it as a stream; each page is one query and one
// small JSON.stringify, and the loop is free between pages. The passages are those of the
// generation the view was read at: a source replaced meanwhile ends its list there.
import type { StoredPassage } from './model.js';

/** Passages read per query. */
export const PASSAGE_PAGE = 500;

export type PassagePage = (afterPosition: number, limit: number) => Promise<Array<StoredPassage & { position: number }>>;

/** `{...view, "Passages": [...]}` in pieces, exactly as JSON.stringify would write it whole. */
export async function* sourceJson(view: object, page: PassagePage): AsyncGenerator<string> {
  yield `${JSON.stringify(view).slice(0, -1)},"Passages":[`;
  let position = -1;
  let separator = '';
  for (;;) {
    const rows = await page(position, PASSAGE_PAGE);
    if (rows.length > 0) {
      yield separator + rows.map((r) => JSON.stringify({ ChunkId: r.chunkId, Heading: r.heading, Text: r.text })).join(',');
      separator = ',';
      position = rows[rows.length - 1].position;
    }
    if (rows.length < PASSAGE_PAGE) break;
  }
  yield ']}';
}
