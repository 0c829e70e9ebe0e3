// A site of the tests' own for Url sources (issue 35) that counts what it serves: the requests
// each path got and the body bytes the socket took, so a test can show a page was not fetched, or
// not read past a limit. Paths:
//   /page            a small text page
//   /blank/N         N bytes of text/plain (a word, then spaces: cheap to index), with a Content-Length
//   /stream/N        N bytes of text/plain without a Content-Length, 64 KiB a turn of the event loop
//   /declared/N      a Content-Length of N and then no body until the client hangs up
//   /hold            a text page whose body waits for release()
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingSite {
  url: string;
  /** requests per path */
  hits: Map<string, number>;
  /** body bytes the socket took, per path */
  served: Map<string, number>;
  /** resolves once `n` /hold requests are waiting */
  holding(n: number): Promise<void>;
  /** ends every waiting /hold request with a page */
  release(): void;
  close(): Promise<void>;
}

// a word, then spaces: text, but only one passage to index
const CHUNK = Buffer.concat([Buffer.from('harbour'), Buffer.alloc(64 * 1024 - 7, ' ')]);

export async function startCountingSite(): Promise<CountingSite> {
  const hits = new Map<string, number>();
  const served = new Map<string, number>();
  const held: http.ServerResponse[] = [];
  const waiters: Array<{ n: number; resolve(): void }> = [];
  const count = (path: string, bytes: number) => served.set(path, (served.get(path) ?? 0) + bytes);
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const [, kind, size] = /^\/(\w+)(?:\/(\d+))?(?:\?.*)?$/.exec(path) ?? [];
    const bytes = Number(size ?? 0);
    if (kind === 'page') return res.writeHead(200, { 'content-type': 'text/plain' }).end('Ferries leave the harbour every hour.');
    if (kind === 'blank') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': bytes });
      return res.end(Buffer.concat([Buffer.from('harbour'), Buffer.alloc(bytes - 7, ' ')]), () => count(path, bytes));
    }
    if (kind === 'stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let left = bytes;
      // one chunk a turn of the event loop, so that a reader that stops is not sent the page in a
      // burst; what the kernel's socket buffers took (a few MiB on loopback) is counted all the same
      const pump = () => {
        if (res.destroyed) return;
        if (left === 0) return void res.end();
        const chunk = CHUNK.subarray(0, Math.min(left, CHUNK.byteLength));
        left -= chunk.byteLength;
        const more = res.write(chunk, (error) => error || count(path, chunk.byteLength));
        if (more) setImmediate(pump);
        else res.once('drain', pump);
      };
      return pump();
    }
    if (kind === 'declared') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': bytes }).flushHeaders();
    if (kind === 'hold') {
      res.writeHead(200, { 'content-type': 'text/plain' }).flushHeaders();
      held.push(res);
      for (const w of waiters.filter((w) => held.length >= w.n)) w.resolve();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    served,
    holding: (n) => (held.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    release: () => {
      for (const res of held.splice(0)) res.end('Held pages answer at last.');
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
