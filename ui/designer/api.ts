// The console API as the designer reads it: the session cookie goes along (same origin), and an
// error answer becomes an ApiError that keeps its status and body (Code, Problems, Version).
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: { Code?: string; Message?: string; Problems?: { Path: string; Message: string }[]; Version?: number }) {
    super(body.Message ?? `The server answered ${status}.`);
  }
}

export async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`/console/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, answer);
  return answer as T;
}

export const botPath = (botId: string, rest: string) => `/bots/${encodeURIComponent(botId)}${rest}`;

export interface Me { OperatorId: string; Name: string; Email: string; Role: 'agent' | 'designer' | 'admin' }
export interface BotChoice { BotId: string; Name: string; Published: boolean }
export interface Version { Version: number; PublishedAt: string; PublishedBy: { Kind: string; Name?: string; Email?: string } | null }
export interface Change { Path: string; Kind: 'added' | 'removed' | 'changed'; Before?: unknown; After?: unknown }
export interface PreviewPart { Type: number; Text?: string | null; Source?: { Behaviour: string; Interaction: string }; Parts?: PreviewPart[]; Command?: string }
