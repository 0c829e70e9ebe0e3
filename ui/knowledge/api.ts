// The Knowledge page's calls (/console/api/bots/{botId}/knowledge…, the cookie twins of
// knowledge.md's routes), each a thin typed function over the console's one API client
// (ui/shared/api-client.ts: the session cookie, errors as ApiError with the server's Code and
// Message, which the page shows as they are).
import { consoleApi } from '../shared/api-client';

export interface Source {
  SourceId: string;
  Name: string;
  Kind: 'text' | 'html' | 'faq' | 'url' | 'pdf' | 'docx';
  Url: string | null;
  Status: 'ready' | 'indexing' | 'failed';
  Chunks: number;
  Bytes: number;
  UpdatedAt: string;
  Error: string | null;
}
export interface Passage {
  ChunkId: number;
  Heading: string;
  Text: string;
}
export interface Found extends Passage {
  SourceId: string;
  SourceName: string;
  Score: number;
}
export interface Answer {
  Status: 'ANSWERED' | 'NO_ANSWER' | 'ERROR' | 'TIMEOUT';
  Answer: string | null;
  Sources: { SourceId: string; SourceName: string; ChunkId: number }[];
  Score: number | null;
  MinScore: number;
}
export interface FaqPair {
  Question: string;
  Answer: string;
}
/** One source as GET …/knowledge/{sourceId} answers: its passages, and an FAQ's pairs. */
export interface SourceDetail extends Source {
  Passages: Passage[];
  Faq?: FaqPair[];
}
/** What POST or PUT …/knowledge takes: a JSON source, or a form with the file. */
export type SourceBody = Record<string, unknown> | FormData;

const knowledgePath = (botId: string, rest = '') => `/bots/${encodeURIComponent(botId)}/knowledge${rest}`;
const sourcePath = (botId: string, sourceId: string) => knowledgePath(botId, `/${encodeURIComponent(sourceId)}`);

export const listSources = async (botId: string): Promise<Source[]> => (await consoleApi.call<{ Result: Source[] }>('GET', knowledgePath(botId))).Result;
export const readSource = (botId: string, sourceId: string): Promise<SourceDetail> => consoleApi.call<SourceDetail>('GET', sourcePath(botId, sourceId));
export const deleteSource = async (botId: string, sourceId: string): Promise<void> => void (await consoleApi.call<null>('DELETE', sourcePath(botId, sourceId)));
/** Adds a source, or replaces `replacing` (its id) with it. */
export const saveSource = (botId: string, body: SourceBody, replacing: string | null): Promise<Source> =>
  consoleApi.call<Source>(replacing ? 'PUT' : 'POST', replacing ? sourcePath(botId, replacing) : knowledgePath(botId), body);
export const askKnowledge = (botId: string, question: string): Promise<Answer> => consoleApi.call<Answer>('POST', knowledgePath(botId, '/ask'), { Text: question });
export const searchKnowledge = async (botId: string, question: string, limit: number): Promise<Found[]> =>
  (await consoleApi.call<{ Result: Found[] }>('POST', knowledgePath(botId, '/search'), { Text: question, Limit: limit })).Result;
