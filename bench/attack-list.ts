// The attacks of issue 35, one entry each: what is sent, to which route, and what came back. Each
// runs against a freshly started server (attacks.ts) that has one account and one bot.
import type { Client } from '../test/support/client.js';
import { upload } from '../test/support/knowledge-files.js';
import { bigJsonBot, docxBomb, nulText, pageServer, sharedStreamPdf, yamlBrackets, yamlKeys, yamlList } from './attack-inputs.js';

export interface Target {
  base: string;
  accountToken: string;
  botKey: string;
}

/** One request's answer: status (0: none), the error's Code, and a source's passages when it was one. */
export interface Answer {
  status: number;
  code?: string;
  passages?: number;
}

export interface Attack {
  name: string;
  route: string;
  /** the input's size, for the table */
  size?: string;
  /** made before the clock starts (making a 100 MB DOCX is not the server's time) */
  prepare?: () => Promise<unknown>;
  run(target: Target, input: unknown, signal: AbortSignal): Promise<Answer[]>;
}

const bytes = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, code: res.status >= 300 ? (body?.Code ?? '(no Code)') : undefined, passages: typeof body?.Chunks === 'number' ? body.Chunks : undefined };
}

/** A bot file sent to POST /bots with its content type. */
function botFile(name: string, make: () => string, type: 'application/yaml' | 'application/json'): Attack {
  let length = 0;
  return {
    name,
    route: `POST /bots (${type})`,
    get size() {
      return length ? bytes(length) : undefined;
    },
    prepare: async () => {
      const text = make();
      length = Buffer.byteLength(text);
      return text;
    },
    run: async (t, input, signal) => {
      const res = await fetch(`${t.base}/bots`, { method: 'POST', headers: { authorization: `Bearer ${t.accountToken}`, 'content-type': type }, body: input as string, signal });
      return [await answerOf(res)];
    },
  };
}

/** A file uploaded as a knowledge source (multipart, as `curl -F` would). */
function document(name: string, fileName: string, make: () => Promise<Buffer> | Buffer): Attack {
  let length = 0;
  return {
    name,
    route: 'POST /bots/{k}/knowledge (upload)',
    get size() {
      return length ? bytes(length) : undefined;
    },
    prepare: async () => {
      const data = await make();
      length = data.length;
      return data;
    },
    run: async (t, input) => {
      const res = await upload({ base: t.base } as Client, 'POST', `/bots/${t.botKey}/knowledge`, t.accountToken, { name: fileName, data: input as Buffer }, { Name: name });
      return [{ status: res.status, code: res.status >= 300 ? ((res.body as any)?.Code ?? '(no Code)') : undefined, passages: (res.body as any)?.Chunks }];
    },
  };
}

const URL_SOURCES = 40;
const PAGE_BYTES = 10 * 1024 * 1024;

/** 40 URL sources added at once, each a 10 MiB page from a server on 127.0.0.1 (the server runs with COLLOQUY_ALLOW_PRIVATE_NETWORK=1). */
const urlSources: Attack = {
  name: `${URL_SOURCES} concurrent URL sources of 10 MiB`,
  route: 'POST /bots/{k}/knowledge {Url}',
  size: `${URL_SOURCES} × 10 MiB`,
  run: async (t, _input, signal) => {
    const pages = await pageServer(PAGE_BYTES);
    try {
      return await Promise.all(
        Array.from({ length: URL_SOURCES }, async (_, i) => {
          try {
            const res = await fetch(`${t.base}/bots/${t.botKey}/knowledge`, {
              method: 'POST',
              headers: { authorization: `Bearer ${t.accountToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({ Name: `Page ${i}`, Url: pages.url(i) }),
              signal,
            });
            return await answerOf(res);
          } catch (error) {
            if (signal.aborted) throw error;
            return { status: 0, code: (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name };
          }
        }),
      );
    } finally {
      await pages.close();
    }
  },
};

export const ATTACKS: Attack[] = [
  botFile('YAML, 20,000 keys', () => yamlKeys(20_000), 'application/yaml'),
  botFile('YAML, 600,000 keys', () => yamlKeys(600_000), 'application/yaml'),
  botFile('YAML, 1 MB of `[`', () => yamlBrackets(1_000_000), 'application/yaml'),
  botFile('YAML, 2 MB list', () => yamlList(2_000_000), 'application/yaml'),
  botFile('JSON bot file, 4.5 MB', () => bigJsonBot(4_500_000), 'application/json'),
  document('DOCX, 100 MB of XML', 'bomb.docx', () => docxBomb(100_000_000)),
  document('PDF, 6,500 pages, one content stream', 'shared.pdf', () => sharedStreamPdf(6_500)),
  urlSources,
  document('.txt with a NUL', 'nul.txt', nulText),
];
