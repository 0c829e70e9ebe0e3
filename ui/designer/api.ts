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
export interface Change { Path: string; Kind: 'added' | 'removed' | 'changed'; Before?: unknown; After?: unknown; Behaviour?: string; Interaction?: string }

/**
 * The console numbers published versions 1, 2, 3… (oldest first), as a person counts publishes; the
 * API's `Version` counts every saved draft too. `versions` is the list, newest first.
 */
export const publishedNumber = (versions: Version[], apiVersion: number) => {
  const at = versions.findIndex((v) => v.Version === apiVersion);
  return at < 0 ? null : versions.length - at;
};

export async function publishedVersions(botId: string): Promise<Version[]> {
  return (await call<{ Result: Version[] }>('GET', botPath(botId, '/versions'))).Result;
}
export interface PreviewPart { Type: number; Text?: string | null; Source?: { Behaviour: string; Interaction: string }; Parts?: PreviewPart[]; Command?: string }
