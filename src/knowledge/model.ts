// Knowledge as the rest of the server sees it (knowledge.md): plain records, no SQL shapes.

export type SourceKind = 'text' | 'html' | 'faq' | 'url' | 'pdf' | 'docx';
export type SourceStatus = 'ready' | 'indexing' | 'failed';

export interface SourceRecord {
  id: string;
  botId: string;
  name: string;
  kind: SourceKind;
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
  /** higher is better (a BM25-like rank of the database) */
  score: number;
}

/** What a bot may hold (knowledge.md "Limits"); checked in the transaction that adds. */
export interface KnowledgeLimits {
  sources: number;
  bytes: number;
}
