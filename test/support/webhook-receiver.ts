// A real integrator endpoint for the webhook tests: a node:http server on 127.0.0.1 that records
// every call (method, path, headers, raw body) and answers as it is told: fail the next N calls,
// answer slowly, or never answer at all.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** the parsed body (null when it is not JSON) */
  body: any;
  /** what the receiver answered */
  status: number;
}

export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  /** the next `failNext` calls are answered 500 */
  failNext = 0;
  /** each answer waits this long (ms); a function gets a random or computed delay per call */
  delayMs: number | (() => number) = 0;
  /** true: calls are recorded but never answered */
  hang = false;
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    let receiver!: WebhookReceiver;
    const server = http.createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    return receiver;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as raw only
      }
      const status = this.failNext > 0 ? (this.failNext--, 500) : 200;
      this.calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, status });
      for (const wake of this.waiters.splice(0)) wake();
      if (this.hang) return;
      const delay = typeof this.delayMs === 'function' ? this.delayMs() : this.delayMs;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no'), delay);
    });
  }

  /** Calls that were answered 2xx. */
  get accepted(): ReceivedCall[] {
    return this.calls.filter((c) => c.status === 200);
  }

  /** DeliveryIds of the accepted calls, in arrival order. */
  get acceptedIds(): string[] {
    return this.accepted.map((c) => c.body?.DeliveryId);
  }

  /** Resolves once `predicate` holds (checked on every call); fails after `timeoutMs`. */
  async waitFor(predicate: (r: WebhookReceiver) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      const left = deadline - Date.now();
      if (left <= 0)
        assert.fail(`receiver: ${what} did not happen in ${timeoutMs} ms; calls: ${JSON.stringify(this.calls.map((c) => [c.status, c.body?.Event, c.body?.Direction, c.body?.DeliveryId]))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `n` calls were accepted. */
  waitForAccepted(n: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((r) => r.accepted.length >= n, `${n} accepted calls`, timeoutMs);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Resolves after `ms` of real time. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
