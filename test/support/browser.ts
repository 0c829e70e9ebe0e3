// Real Chromium for page tests: Debian's `chromium` driven by playwright-core (never a
// downloaded browser), screenshots into test-output/, and a second local web server that plays
// a customer's site on another origin.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = new URL('../../test-output/', import.meta.url);

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Saves a screenshot as test-output/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = new URL(`${name}.png`, SCREENSHOTS).pathname;
  await page.screenshot({ path: file });
  return file;
}

/** Pictures for the example.org URLs of the support bot (tests never reach the internet). */
export async function servePictures(page: Page): Promise<void> {
  await page.route('https://example.org/**', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    const hue = [...name].reduce((n, c) => n + c.charCodeAt(0), 0) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"><rect width="320" height="180" fill="hsl(${hue},60%,75%)"/><text x="160" y="100" font-size="28" text-anchor="middle" font-family="sans-serif">${name}</text></svg>`;
    return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: svg });
  });
}

export interface SiteServer {
  url: string;
  close(): Promise<void>;
}

/** A tiny web server on its own port (so its own origin) serving one HTML page at `/`. */
export async function serveSite(html: string): Promise<SiteServer> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
