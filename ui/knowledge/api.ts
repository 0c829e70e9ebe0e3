// The console API as the Knowledge page reads it (/console/api/bots/{botId}/knowledge…, the cookie
// twins of knowledge.md's routes): the session cookie goes along, same origin; an error answer
// becomes an ApiError with the server's Code and Message, which the page shows as they are.

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

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
export interface Passage { ChunkId: number; Heading: string; Text: string }
export interface Found extends Passage { SourceId: string; SourceName: string; Score: number }
export interface Answer { Status: 'ANSWERED' | 'NO_ANSWER' | 'ERROR' | 'TIMEOUT'; Answer: string | null; Sources: { SourceId: string; SourceName: string; ChunkId: number }[]; Score: number | null; MinScore: number }
export interface Me { Name: string; Role: 'agent' | 'designer' | 'admin' }
export interface BotChoice { BotId: string; Name: string; Published: boolean }

/** A JSON body, or a form (a file upload: the browser sets the multipart boundary). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(`/console/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, answer.Code ?? '', answer.Message ?? `The server answered ${res.status}.`);
  return answer as T;
}

export const knowledgePath = (botId: string, rest = '') => `/bots/${encodeURIComponent(botId)}/knowledge${rest}`;
