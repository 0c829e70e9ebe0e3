// The soak's bot-file and document traffic (issue 35): a bot of its own whose draft is saved again
// and again, as JSON and as YAML (the support bot file, about 12 KB, as the designer or `colloquy
// push` would send it), and small documents uploaded to its knowledge (text, HTML, DOCX, PDF of a
// few KB, as a browser form would) and deleted again, so that the bot stays under its caps.
import fs from 'node:fs';
import YAML from 'yaml';
import { docxFile, pdfFile } from '../test/support/knowledge-files.js';
import type { Recorder } from './soak-stats.js';
import { call, paced, type Traffic } from './soak-traffic.js';

const SENTENCES = [
  'Orders ship within two working days from our warehouse.',
  'A refund is paid to the card that paid for the order.',
  'Parcels sent abroad take five to ten days and can be tracked online.',
  'Our agents answer the phone from nine to five, Monday to Friday.',
  'A damaged parcel is replaced at no cost when reported within a week.',
];
const paragraph = (i: number) => Array.from({ length: 6 }, (_, j) => SENTENCES[(i + j) % SENTENCES.length]).join(' ');

/** The documents, made once: each a few KB, of the kinds the knowledge page takes. */
async function documents(): Promise<Array<{ name: string; data: Buffer }>> {
  const paragraphs = Array.from({ length: 12 }, (_, i) => paragraph(i));
  return [
    { name: 'policy.txt', data: Buffer.from(paragraphs.join('\n\n')) },
    { name: 'policy.html', data: Buffer.from(`<html><body><h1>Policy</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`) },
    { name: 'policy.docx', data: await docxFile([{ heading: 'Policy' }, ...paragraphs]) },
    { name: 'policy.pdf', data: pdfFile([paragraphs.slice(0, 4), paragraphs.slice(4, 8), paragraphs.slice(8)].map((ps) => ps.flatMap((p) => p.match(/.{1,90}(\s|$)/g) ?? []))) },
  ];
}

export interface FilesBot {
  botKey: string;
  auth: Record<string, string>;
  json: Record<string, any>;
  documents: Array<{ name: string; data: Buffer }>;
}

/** The bot whose files are saved; the other bots' conversations are not disturbed by its edits. */
export async function seedFiles(recorder: Recorder, base: string, accountToken: string, botFile: URL): Promise<FilesBot> {
  const json = JSON.parse(fs.readFileSync(botFile, 'utf8'));
  const auth = { authorization: `Bearer ${accountToken}` };
  const created = await call(recorder, 'seed', base, 'POST', '/bots', { body: { ...json, name: 'Soak files' }, headers: auth });
  if (created.status !== 201) throw new Error(`seeding: files bot → ${created.status} ${JSON.stringify(created.body)}`);
  return { botKey: created.body.APIKey, auth, json, documents: await documents() };
}

/** Saves and uploads in turn, one step every 1/(rate × share) s; every uploaded source is deleted again. */
export async function filesWorker(t: Traffic, bot: FilesBot, share: number): Promise<void> {
  let step = 0;
  await paced(t.until, 1000 / (t.rate * share), async () => {
    const which = step++ % 6;
    const description = `Saved by the soak, step ${step}`;
    if (which === 0) {
      await call(t.recorder, 'bot save json', t.base, 'PUT', `/bots/${bot.botKey}`, { body: { ...bot.json, description }, headers: bot.auth });
    } else if (which === 1) {
      const yaml = YAML.stringify({ ...bot.json, description });
      await call(t.recorder, 'bot save yaml', t.base, 'PUT', `/bots/${bot.botKey}`, { raw: yaml, headers: { ...bot.auth, 'content-type': 'application/yaml' } });
    } else {
      const file = bot.documents[which - 2];
      const form = new FormData();
      form.append('Name', file.name);
      form.append('file', new Blob([new Uint8Array(file.data)]), file.name);
      const kind = `upload ${file.name.split('.').pop()}`;
      const added = await call(t.recorder, kind, t.base, 'POST', `/bots/${bot.botKey}/knowledge`, { raw: form, headers: bot.auth });
      if (added.status === 201) await call(t.recorder, 'source delete', t.base, 'DELETE', `/bots/${bot.botKey}/knowledge/${added.body.SourceId}`, { headers: bot.auth });
    }
  });
}
