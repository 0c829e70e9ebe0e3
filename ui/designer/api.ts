// The designer's calls to the console API, each a thin typed function over the console's one API
// client (ui/shared/api-client.ts: the session cookie, and an error answer as an ApiError that
// keeps its Code and body, from which the designer reads INVALID_BOT's Problems and
// VERSION_MISMATCH's Version).
import { consoleApi } from '../shared/api-client';
import type { BotChoice } from '../shared/bot-picker';
import type { Change } from './change-words';
import type { PreviewMatch } from './matched';
import type { BotFile, Problem } from './model';
import type { ImportFormat, ImportReport } from '../../src/importers/model.js';

const api = consoleApi;
const botPath = (botId: string, rest = '') => `/bots/${encodeURIComponent(botId)}${rest}`;

export interface Version {
  Version: number;
  PublishedAt: string;
  PublishedBy: { Kind: string; Name?: string; Email?: string } | null;
}
export interface PreviewPart {
  Type: number;
  Text?: string | null;
  Source?: { Behaviour: string; Interaction: string };
  Parts?: PreviewPart[];
  Command?: string;
}
export interface PreviewReply {
  UserId: string;
  Parts: PreviewPart[];
  Matched?: PreviewMatch;
}
export interface Template {
  TemplateId: string;
  Name: string;
  Description: string;
}
export interface ChannelLink {
  Channel: string;
  Connected: boolean;
  Link: string | null;
  Account: string | null;
}
export interface Install {
  WebKey: string;
  Snippet: string;
  TestPage: string;
  Channels: ChannelLink[];
}
/** The draft's version and what is wrong in it (kept even with problems: the console's draft route). */
export interface DraftState {
  Version: number;
  Problems: Problem[];
}

/**
 * The console numbers published versions 1, 2, 3… (oldest first), as a person counts publishes; the
 * API's `Version` counts every saved draft too. `versions` is the list, newest first.
 */
export const publishedNumber = (versions: Version[], apiVersion: number) => {
  const at = versions.findIndex((v) => v.Version === apiVersion);
  return at < 0 ? null : versions.length - at;
};

export const publishedVersions = async (botId: string): Promise<Version[]> => (await api.call<{ Result: Version[] }>('GET', botPath(botId, '/versions'))).Result;
export const changesBetween = async (botId: string, from: string, to: string): Promise<Change[]> =>
  (await api.call<{ Changes: Change[] }>('GET', botPath(botId, `/diff?from=${from}&to=${to}`))).Changes;
export const publish = (botId: string) => api.call<{ Version: number }>('POST', botPath(botId, '/publish'));
export const rollBack = (botId: string, version: number) => api.call<{ Version: number }>('POST', botPath(botId, '/rollback'), { Version: version });

export const readDraft = (botId: string) => api.call<BotFile>('GET', botPath(botId, '/draft'));
export const draftProblems = (botId: string) => api.call<DraftState>('GET', botPath(botId, '/draft/problems'));
/** Saves `file` over the draft of version `over` (If-Match): a VERSION_MISMATCH when someone saved since. */
export const saveDraft = (botId: string, file: BotFile, over: number) => api.call<DraftState>('PUT', botPath(botId, '/draft'), file, { 'if-match': `"${over}"` });

export const previewChat = (botId: string, body: Record<string, unknown>) => api.call<PreviewReply>('POST', botPath(botId, '/preview/chat'), body);
export const installOf = (botId: string) => api.call<Install>('GET', botPath(botId, '/install'));

export const botTemplates = async (): Promise<Template[]> => (await api.call<{ Result: Template[] }>('GET', '/bot-templates')).Result;
export const newBot = (name: string, templateId: string) => api.call<BotChoice>('POST', '/bots', { Name: name, TemplateId: templateId });
export const duplicateBot = (botId: string, name: string) => api.call<BotChoice>('POST', botPath(botId, '/duplicate'), { Name: name });
export const renameBot = async (botId: string, name: string): Promise<void> => void (await api.call('PATCH', botPath(botId), { Name: name }));
export const deleteBot = async (botId: string): Promise<void> => void (await api.call('DELETE', botPath(botId)));

// the report's records are the importers' own (src/importers/model.ts), as the analytics page reuses its model's
export type { ImportFormat, ImportReport, ReportEntry as ImportEntry } from '../../src/importers/model.js';
export interface ImportPreview {
  Format: ImportFormat;
  Bot: BotFile;
  Report: ImportReport;
}
export type ImportedBot = BotChoice & { Format: ImportFormat; Report: ImportReport };
/** The upload as the import routes read it: `file`, and `Format` unless it is to be detected. */
const importForm = (file: File, format: ImportFormat | '') => {
  const form = new FormData();
  if (format) form.append('Format', format);
  form.append('file', file, file.name);
  return form;
};
export const previewImport = (file: File, format: ImportFormat | '') => api.call<ImportPreview>('POST', '/bots/import/preview', importForm(file, format));
export const importBot = (file: File, format: ImportFormat | '') => api.call<ImportedBot>('POST', '/bots/import', importForm(file, format));
