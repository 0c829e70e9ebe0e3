// What understanding needs from storage: the vectors of a published version's intent examples,
// per embedding model (migration 016), so that every node and every restart has them without
// asking the provider again. Implemented by store/knowledge-vectors.ts.

export interface IntentVectorStorage {
  vectors: {
    /** the labels and float32 vectors stored for the version and model; null when none yet */
    intentVectors(versionId: number, model: string): Promise<{ labels: string[]; vectors: Uint8Array } | null>;
    putIntentVectors(versionId: number, model: string, labels: string[], vectors: Buffer, now: number): Promise<void>;
  };
}
