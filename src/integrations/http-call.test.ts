import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { performHttpCall, isPrivateAddress, checkPublicUrl, MAX_RESPONSE_BYTES, type HttpCallRequest } from './http-call.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** A local server that records every request it sees, then lets `handle` answer (or not). */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, base: `http://127.0.0.1:${port}` };
}

const call = (url: string, extra: Partial<HttpCallRequest> = {}): HttpCallRequest => ({
  method: 'GET',
  url,
  headers: {},
  body: null,
  timeoutMs: 2000,
  ...extra,
});
const open = { allowPrivateNetwork: true };
const guarded = { allowPrivateNetwork: false };

test('200 with body', async () => {
  const s = await serve((_q, r) => r.end('héllo'));
  assert.deepEqual(await performHttpCall(call(`${s.base}/x`), open), { status: 200, body: 'héllo' });
});

test('404 status is passed through with its body', async () => {
  const s = await serve((_q, r) => {
    r.statusCode = 404;
    r.end('nope');
  });
  assert.deepEqual(await performHttpCall(call(s.base), open), { status: 404, body: 'nope' });
});

test('server that never answers → TIMEOUT', async () => {
  const s = await serve(() => {});
  const t0 = Date.now();
  assert.deepEqual(await performHttpCall(call(s.base, { timeoutMs: 200 }), open), { status: 'TIMEOUT', body: '' });
  assert.ok(Date.now() - t0 < 1500);
});

test('headers sent, then the body stalls → TIMEOUT', async () => {
  const s = await serve((_q, r) => {
    r.writeHead(200, { 'content-type': 'text/plain' });
    r.write('partial');
  });
  assert.deepEqual(await performHttpCall(call(s.base, { timeoutMs: 200 }), open), { status: 'TIMEOUT', body: '' });
});

test('body over maxBytes → ERROR (an endless body is cut off, not waited for); exactly maxBytes is fine', async () => {
  let dropped!: Promise<void>;
  const endless = await serve((_q, r) => {
    dropped = new Promise((done) => r.on('close', done));
    const tick = setInterval(() => (r.destroyed ? clearInterval(tick) : r.write('x'.repeat(64))), 5);
  });
  const t0 = Date.now();
  assert.deepEqual(await performHttpCall(call(endless.base), { ...open, maxBytes: 100 }), { status: 'ERROR', body: '' });
  assert.ok(Date.now() - t0 < 1500, 'stopped reading before the timeout');
  // the stream was cancelled: the connection goes away instead of lingering
  await Promise.race([dropped, new Promise((_, no) => setTimeout(() => no(new Error('connection not dropped')), 1000))]);

  const exact = await serve((_q, r) => r.end('y'.repeat(100)));
  assert.deepEqual(await performHttpCall(call(exact.base), { ...open, maxBytes: 100 }), { status: 200, body: 'y'.repeat(100) });
  assert.deepEqual(await performHttpCall(call(exact.base), { ...open, maxBytes: 99 }), { status: 'ERROR', body: '' });
});

test('the default cap is 1 MiB: an endless body, raw or gzipped, is read only that far, never buffered whole', async () => {
  const chunk = Buffer.alloc(64 * 1024, 'z');
  let written = 0;
  /** Writes as fast as the client reads, forever, and counts what it handed over. */
  const flood = (out: NodeJS.WritableStream) => {
    const more = () => {
      while (written < 1024 * MAX_RESPONSE_BYTES) {
        written += chunk.length;
        if (!out.write(chunk)) return void out.once('drain', more);
      }
    };
    more();
  };
  const raw = await serve((_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    flood(r);
  });
  assert.deepEqual(await performHttpCall(call(raw.base, { timeoutMs: 20_000 }), open), { status: 'ERROR', body: '' });
  assert.ok(written < 16 * MAX_RESPONSE_BYTES, `the server handed over ${written} bytes`);

  // A few KiB of gzip that inflate to a gigabyte: the cap counts the inflated bytes.
  written = 0;
  const bomb = await serve((_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const gzip = createGzip();
    gzip.pipe(r);
    r.on('close', () => gzip.destroy());
    flood(gzip);
  });
  assert.deepEqual(await performHttpCall(call(bomb.base, { timeoutMs: 20_000 }), open), { status: 'ERROR', body: '' });
  assert.ok(written < 64 * MAX_RESPONSE_BYTES, `the server compressed ${written} bytes`);

  const fits = await serve((_q, r) => r.end('f'.repeat(MAX_RESPONSE_BYTES)));
  assert.equal((await performHttpCall(call(fits.base), open)).status, 200);
});

test('refused connection, DNS failure, invalid URL, non-http scheme → ERROR', async () => {
  const s = await serve(() => {});
  const dead = servers.pop()!;
  dead.close();
  await new Promise((r) => setTimeout(r, 20));
  const err = { status: 'ERROR', body: '' };
  assert.deepEqual(await performHttpCall(call(s.base), open), err);
  assert.deepEqual(await performHttpCall(call('http://nonexistent.invalid/'), open), err);
  assert.deepEqual(await performHttpCall(call('not a url'), open), err);
  assert.deepEqual(await performHttpCall(call('ftp://8.8.8.8/file'), open), err);
  assert.deepEqual(await performHttpCall(call('file:///etc/passwd'), open), err);
});

test('loopback refused without a connection unless allowPrivateNetwork', async () => {
  const s = await serve((_q, r) => r.end('secret'));
  for (const url of [s.base, `http://localhost:${s.port}/`, `http://[::ffff:127.0.0.1]:${s.port}/`, `http://2130706433:${s.port}/`]) {
    assert.deepEqual(await performHttpCall(call(url), guarded), { status: 'ERROR', body: '' }, url);
  }
  assert.equal(s.seen.length, 0, 'the server saw no request');
  assert.deepEqual(await performHttpCall(call(s.base), open), { status: 200, body: 'secret' });
  assert.equal(s.seen.length, 1);
});

test('a name with ANY private address is refused; the vetted lookup is the only one (no rebinding)', async (t) => {
  const s = await serve((_q, r) => r.end('secret'));
  const answers: Record<string, dns.LookupAddress[][]> = {
    'mixed.test': [
      [
        { address: '8.8.8.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ],
    // first answer public (TEST-NET-3, unroutable), any later answer would be loopback
    'rebind.test': [[{ address: '203.0.113.7', family: 4 }], [{ address: '127.0.0.1', family: 4 }]],
  };
  const calls: string[] = [];
  const fake = async (host: string) => {
    calls.push(host);
    const list = answers[host];
    return list.length > 1 ? list.shift()! : list[0];
  };
  t.mock.method(dns.promises, 'lookup', fake as unknown as typeof dns.promises.lookup);

  assert.deepEqual(await performHttpCall(call(`http://mixed.test:${s.port}/`), guarded), { status: 'ERROR', body: '' });
  const r = await performHttpCall(call(`http://rebind.test:${s.port}/`, { timeoutMs: 300 }), guarded);
  assert.notEqual(r.status, 200);
  assert.equal(s.seen.length, 0, 'the server saw no request');
  assert.deepEqual(calls, ['mixed.test', 'rebind.test']);

  assert.equal(await checkPublicUrl('https://mixed.test/hook'), false);
  assert.equal(await checkPublicUrl('https://rebind.test/hook'), false); // now answers 127.0.0.1
});

test('checkPublicUrl', async (t) => {
  assert.equal(await checkPublicUrl('https://8.8.8.8/hook'), true);
  assert.equal(await checkPublicUrl('http://[2606:4700::1]/'), true);
  assert.equal(await checkPublicUrl('http://127.0.0.1/'), false);
  assert.equal(await checkPublicUrl('http://localhost/'), false);
  assert.equal(await checkPublicUrl('http://[fe80::1]/'), false);
  assert.equal(await checkPublicUrl('ftp://8.8.8.8/'), false);
  assert.equal(await checkPublicUrl('nonsense'), false);
  assert.equal(await checkPublicUrl('http://nonexistent.invalid/'), false);
  t.mock.method(dns.promises, 'lookup', (async () => [{ address: '93.184.215.14', family: 4 }]) as unknown as typeof dns.promises.lookup);
  assert.equal(await checkPublicUrl('https://example.test/'), true);
});

test('method, headers and body are sent exactly; redirects are returned, not followed', async () => {
  const target = await serve((_q, r) => r.end('followed'));
  const s = await serve((q, r) => {
    if (q.url === '/redirect') {
      r.writeHead(302, { location: `${target.base}/` });
      return r.end();
    }
    r.end('ok');
  });
  const headers = { 'Content-Type': 'application/json', 'X-Api-Key': 'k-123' };
  const body = '{"a":1}';
  assert.deepEqual(await performHttpCall(call(`${s.base}/p?q=1`, { method: 'PUT', headers, body }), open), { status: 200, body: 'ok' });
  assert.deepEqual(await performHttpCall(call(`${s.base}/d`, { method: 'DELETE' }), open), { status: 200, body: 'ok' });
  // a body templated onto a GET is dropped rather than failing the call
  assert.deepEqual(await performHttpCall(call(`${s.base}/g`, { body: 'ignored' }), open), { status: 200, body: 'ok' });
  const [put, del, get] = s.seen;
  assert.deepEqual([put.method, put.url, put.body], ['PUT', '/p?q=1', body]);
  assert.equal(put.headers['content-type'], 'application/json');
  assert.equal(put.headers['x-api-key'], 'k-123');
  assert.equal(put.headers['content-length'], String(body.length));
  assert.deepEqual([del.method, del.url, del.body], ['DELETE', '/d', '']);
  assert.deepEqual([get.method, get.body], ['GET', '']);

  assert.deepEqual(await performHttpCall(call(`${s.base}/redirect`), open), { status: 302, body: '' });
  assert.equal(target.seen.length, 0, 'redirect target never contacted');
});

test('isPrivateAddress', () => {
  const table: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.15.255.255', false],
    ['172.32.0.1', false],
    ['192.168.0.1', true],
    ['192.168.255.255', true],
    ['192.169.0.1', false],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe00::1', true], // fe00::/9 is reserved, outside 2000::/3
    ['169.254.169.254', true],
    ['169.253.0.1', false],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf::1', true],
    ['fec0::1', true],
    ['0.0.0.0', true],
    ['::', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.63.255.255', false],
    ['100.128.0.1', false],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.1.2.3', true],
    ['::ffff:192.168.1.1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:100.64.0.1', true],
    ['::ffff:0.0.0.0', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::8.8.8.8', false],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['2606:4700::1', false],
    ['2001:4860:4860::8888', false],
    ['not-an-ip', true],
    ['', true],
  ];
  for (const [ip, want] of table) assert.equal(isPrivateAddress(ip), want, ip);
});

test('isPrivateAddress refuses every special-purpose range, IPv4 embedded in IPv6 by what it embeds (finding 8)', () => {
  const refused = [
    // IPv4 special ranges the hand list missed
    '198.18.0.1',
    '198.19.255.255', // benchmarking 198.18.0.0/15
    '192.0.0.1',
    '192.0.0.170', // IETF protocol assignments 192.0.0.0/24
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9', // documentation
    '224.0.0.1',
    '239.255.255.250', // multicast
    '240.0.0.1',
    '250.1.2.3', // reserved 240.0.0.0/4
    '255.255.255.255', // broadcast
    '0.1.2.3', // 0.0.0.0/8
    // IPv6 forms
    '::ffff:0:127.0.0.1',
    '::ffff:0:8.8.8.8', // RFC 6145 IPv4-translated
    '64:ff9b:1::1',
    '64:ff9b:1::8.8.8.8',
    '64:ff9b:1:ffff::1', // RFC 8215 local-use NAT64, the whole /48
    '64:ff9b::10.0.0.1',
    '64:ff9b::192.168.1.1', // NAT64 of a private v4
    'fec0::1',
    'feff::1', // site-local fec0::/10 (deprecated)
    'ff02::1',
    'ff0e::1', // multicast
    '2002:7f00:1::1',
    '2002:c0a8:101::1', // 6to4 of 127.0.0.1 and 192.168.1.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo whose client is 127.0.0.1 (obfuscated)
    '2001:db8::1', // documentation
    '100::1', // discard
    '::127.0.0.1',
    '::10.0.0.1',
    '::7f00:1', // deprecated IPv4-compatible ::/96
    '4000::1', // outside global unicast 2000::/3
  ];
  for (const ip of refused) assert.equal(isPrivateAddress(ip), true, ip);
  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'];
  for (const ip of allowed) assert.equal(isPrivateAddress(ip), false, ip);
});

test('checkPublicUrl refuses the special ranges as IP literals too', async () => {
  for (const url of [
    'http://198.18.0.1/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[64:ff9b:1::1]/',
    'http://[fec0::1]/',
    'http://255.255.255.255/',
    'http://224.0.0.1/',
    'http://240.0.0.1/',
    'http://192.0.0.1/',
  ]) {
    assert.equal(await checkPublicUrl(url), false, url);
  }
  assert.equal(await checkPublicUrl('https://[2606:4700::1111]/'), true);
});
