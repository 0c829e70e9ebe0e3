// A preload (`node --import`) for proving that a run makes no network connection: every way Node
// opens one throws, and each attempt is written to $NO_NETWORK_LOG (a swallowed error still shows).
// Plain JavaScript: it runs before tsx is registered. A Unix socket (a `path`, never a port) is a
// local pipe, not the network: tsx opens one to its own process when it loads the sources.
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

const log = process.env.NO_NETWORK_LOG;
const refuse = (what) =>
  function refused() {
    if (log) fs.appendFileSync(log, `${what}\n`);
    throw new Error(`a network call in a test run: ${what}`);
  };
// net.connect hands Socket#connect its arguments already normalized, as one array
const isLocalPipe = (given) => {
  const args = Array.isArray(given[0]) ? given[0] : given;
  return (typeof args[0] === 'object' && args[0] !== null && typeof args[0].path === 'string') || (typeof args[0] === 'string' && Number.isNaN(Number(args[0])));
};
const unlessPipe = (original, what) => {
  const refused = refuse(what);
  return function (...args) {
    return isLocalPipe(args) ? original.apply(this, args) : refused();
  };
};
net.connect = net.createConnection = unlessPipe(net.connect, 'net.connect');
net.Socket.prototype.connect = unlessPipe(net.Socket.prototype.connect, 'net.Socket.connect');
tls.connect = refuse('tls.connect');
http.request = http.get = refuse('http.request');
https.request = https.get = refuse('https.request');
dns.lookup = refuse('dns.lookup');
dns.promises.lookup = refuse('dns.promises.lookup');
globalThis.fetch = refuse('fetch');
