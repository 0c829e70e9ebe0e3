// The guides served under /docs/guides: the project's docs/*.md, read once at start, each with its
// title (its first "# " heading) and its HTML (markdown.ts). Only these files are ever served: a
// page is looked up by name in this list, never by a path built from the request.
import fs from 'node:fs';
import { markdownToHtml } from './markdown.js';

export interface Guide {
  /** the file's name without .md: "analytics" */
  name: string;
  title: string;
  html: string;
}

const DOCS_DIR = new URL('../../docs/', import.meta.url);

function load(): Guide[] {
  if (!fs.existsSync(DOCS_DIR)) return [];
  return fs
    .readdirSync(DOCS_DIR)
    .filter((file) => /^[a-z0-9-]+\.md$/.test(file))
    .sort()
    .map((file) => {
      const markdown = fs.readFileSync(new URL(file, DOCS_DIR), 'utf8');
      const title = /^# (.+)$/m.exec(markdown)?.[1].trim() ?? file;
      return { name: file.slice(0, -3), title, html: markdownToHtml(markdown) };
    });
}

let guides: Guide[] | null = null;
export const allGuides = (): Guide[] => (guides ??= load());
export const guideNamed = (name: string): Guide | undefined => allGuides().find((g) => g.name === name);
