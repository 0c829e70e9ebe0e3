// What every local double of an external platform does the same way: listen on loopback, wait
// until the calls it recorded say something happened, and close even with calls left hanging.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenOnLoopback(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Resolves once `check` holds; throws after `ms` with what was awaited and what the double saw. */
export async function waitUntil(check: () => boolean, what: string, seen: () => unknown, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; calls: ${JSON.stringify(seen())}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Once a webhook has answered while the platform was told to hang: the hanging call is made (now or
 * soon) and still held open, so the answer did not wait for it (a hang ends only when our client
 * gives up). An order of events instead of a time limit, which a loaded machine breaks.
 */
export async function stillHangingAfterAnswer(hanging: readonly http.ServerResponse[]): Promise<void> {
  await waitUntil(
    () => hanging.length > 0,
    'the call the platform leaves hanging',
    () => hanging.length,
  );
  const closed = hanging.filter((res) => res.destroyed || res.socket === null || res.socket.destroyed).length;
  if (closed > 0) throw new Error(`${closed} hanging call(s) had already been given up when the webhook answered: it waited for the platform`);
}

export async function closeDouble(server: http.Server, hanging: http.ServerResponse[]): Promise<void> {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export type ScriptedAnswer = 'ok' | 'rate-limit' | 'server-error' | 'hang';

/**
 * What a platform double with a script keeps: the calls it received, the problems it found in them
 * (what the platform would refuse), the answers it was told to give next, and the calls it holds.
 */
export abstract class ScriptedDouble<Call> {
  readonly calls: Call[] = [];
  readonly violations: string[] = [];
  /** answers for the next checked calls, in order; then every call is answered `ok` */
  readonly script: ScriptedAnswer[] = [];
  readonly hanging: http.ServerResponse[] = [];
  /** seconds sent as `Retry-After` with a rate-limit answer */
  retryAfterSeconds = 1;
  protected server!: http.Server;
  /** the API root the server is pointed at (its COLLOQUY_*_URL) */
  url = '';
  protected abstract readonly platform: string;
  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** a call as the timeout message shows it */
  protected abstract describe(call: Call): unknown;

  /** Listens on loopback; `root` is the API's path prefix (Slack's `/api`). */
  protected async listen(root = ''): Promise<this> {
    const { server, url } = await listenOnLoopback((req, res) => this.handle(req, res));
    this.server = server;
    this.url = `${url}${root}`;
    return this;
  }

  waitFor(check: () => boolean, what: string): Promise<void> {
    return waitUntil(check, what, () => this.calls.map((c) => this.describe(c)), 20_000);
  }

  assertNoViolations(): void {
    if (this.violations.length > 0) throw new Error(`calls ${this.platform} would refuse: ${JSON.stringify(this.violations)}`);
  }

  close(): Promise<void> {
    return closeDouble(this.server, this.hanging);
  }
}
