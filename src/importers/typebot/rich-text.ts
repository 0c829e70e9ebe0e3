// Typebot's rich text (Slate/Plate nodes: paragraphs of leaves with bold, italic and links) as the
// Markdown a Colloquy text carries (importers.md: "text bubbles → text (rich text as Markdown)").
import { isObj, listAt, textAt } from '../shared.js';

/** At most this many nodes are read from one bubble (a bound on a hostile export). */
const MAX_NODES = 10_000;

export function richTextToMarkdown(nodes: unknown): string {
  const budget = { left: MAX_NODES };
  return listAt(nodes)
    .map((node) => inline(node, budget))
    .join('\n')
    .trim();
}

function inline(node: unknown, budget: { left: number }): string {
  if (!isObj(node) || budget.left-- <= 0) return '';
  if (typeof node.text === 'string') return leaf(node.text, node);
  const inner = listAt(node.children)
    .map((child) => inline(child, budget))
    .join('');
  if (node.type === 'a' && typeof node.url === 'string') return `[${inner}](${node.url})`;
  return inner;
}

function leaf(text: string, marks: Record<string, unknown>): string {
  if (text.trim() === '') return text;
  let out = text;
  if (marks.code === true) out = `\`${out}\``;
  if (marks.italic === true) out = `_${out}_`;
  if (marks.bold === true) out = `**${out}**`;
  return out;
}

/** A bubble's text: its rich text, else the plain text newer exports also carry. */
export function bubbleText(content: unknown): string {
  const c = isObj(content) ? content : {};
  const rich = richTextToMarkdown(c.richText);
  return rich !== '' ? rich : (textAt(c.plainText) ?? '').trim();
}
