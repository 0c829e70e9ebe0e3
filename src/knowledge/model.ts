// Knowledge as the rest of the server sees it (knowledge.md): plain records, no SQL shapes.

export type SourceKind = 'text' | 'html' | 'faq' | 'url' | 'pdf' | 'docx';
export type SourceStatus = 'ready' | 'indexing' | 'failed';

export interface SourceRecord {
  id: string;
  botId: string;
  name: string;
  kind: SourceKind;
  /** where a `Url` source was fetched from; null for the others */
  url: string | null;
  status: SourceStatus;
  /** why indexing failed; null unless failed */
  error: string | null;
  chunks: number;
  /** UTF-8 bytes of the document as sent: counted against the bot's 50 MiB */
  bytes: number;
  /** moves on with each replacement: an indexing job of older content never swaps its passages in */
  generation: number;
  createdAt: number;
  updatedAt: number;
}

export interface StoredPassage {
  chunkId: number;
  heading: string;
  text: string;
}

export interface FoundPassage extends StoredPassage {
  sourceId: string;
  sourceName: string;
  /** the source's page, for a `Url` source (cited as a link) */
  sourceUrl: string | null;
  /** higher is better (a BM25-like rank of the database) */
  score: number;
}

/** What a bot may hold (knowledge.md "Limits"); checked in the transaction that adds. */
export interface KnowledgeLimits {
  sources: number;
  bytes: number;
}

/** A passage as cut from a document, before the database numbers it. */
export interface NewPassage {
  heading: string;
  text: string;
}

/** Why an add or a replacement was refused: the bot would hold too many sources or bytes. */
export type LimitHit = 'sources' | 'bytes' | null;

/** What a search ranks (the database's candidates of a question, knowledge/word-search.ts). */
export interface Candidates {
  passages: FoundPassage[];
  /** per term: the bot's passages holding it, counted up to FREQUENCY_CAP */
  frequencies: Map<string, number>;
  /** the bot's searchable passages */
  passageCount: number;
}

export interface PassageToEmbed {
  chunkId: number;
  heading: string;
  text: string;
}

export interface StoredVector {
  chunkId: number;
  vector: Uint8Array;
}

/** What changes whenever a bot's vectors of a model do: ids only grow, so count and sum tell additions from removals. */
export interface VectorStamp {
  count: number;
  top: number;
  sum: number;
}

/** One question and its answer of an FAQ source, as written (knowledge/faq-pairs.ts checks them). */
export interface FaqPair {
  Question: string;
  Answer: string;
}
