// The "Ask" box: what the bot's `knowledge` action would answer (POST …/knowledge/ask) beside the
// passages search finds for the same words (POST …/knowledge/search), with their scores and a
// mark on those the answer rests on, the bot's minimum score (scores.ts); and, when nothing is
// answered, why.
import { askKnowledge, searchKnowledge, type Answer, type Found } from './api';
import { el } from './sources';
import { minimumLine, scoreTag, underMinimum } from './scores';

const WHY: Record<Exclude<Answer['Status'], 'ANSWERED'>, string> = {
  NO_ANSWER: 'No answer.',
  ERROR: 'The AI provider failed; the bot runs its onNoAnswer steps and makes nothing up.',
  TIMEOUT: 'The AI provider did not answer in time; the bot runs its onNoAnswer steps.',
};

export async function ask(botId: string, question: string, out: HTMLElement): Promise<void> {
  out.replaceChildren(el('p', 'hint', 'Asking…'));
  try {
    const [answer, found] = await Promise.all([askKnowledge(botId, question), searchKnowledge(botId, question, 5)]);
    draw(answer, found, out);
  } catch (error) {
    out.replaceChildren(el('p', 'error', (error as Error).message));
  }
}

function draw(answer: Answer, found: Found[], out: HTMLElement): void {
  const status = el('p', `verdict verdict-${answer.Status.toLowerCase()}`);
  status.append(el('span', `badge badge-${answer.Status === 'ANSWERED' ? 'ready' : 'failed'}`, answer.Status));
  const parts: HTMLElement[] = [status];
  if (answer.Status === 'ANSWERED' && answer.Answer !== null) {
    parts.push(el('blockquote', 'answer-text', answer.Answer));
    parts.push(el('p', 'hint', `Sources: ${[...new Set(answer.Sources.map((s) => s.SourceName))].join(', ')}`));
  } else {
    status.append(' ', WHY[answer.Status as keyof typeof WHY]);
    parts.push(el('p', 'hint', reason(answer, found)));
  }
  parts.push(minimumLine(answer));
  if (found.length > 0) {
    const used = new Set(answer.Sources.map((s) => `${s.SourceId}/${s.ChunkId}`));
    parts.push(el('h3', 'found-title', 'Passages found, best first'));
    const list = el('ol', 'found');
    for (const p of found) {
      const item = el('li', 'passage');
      const head = el('p', 'passage-head');
      head.append(scoreTag(p.Score, answer.MinScore), ' ', el('span', 'passage-source', p.SourceName + (p.Heading ? ` › ${p.Heading}` : '')));
      if (used.has(`${p.SourceId}/${p.ChunkId}`)) head.append(' ', el('span', 'badge badge-ready', 'used in the answer'));
      item.append(head, el('p', 'passage-text', p.Text));
      list.append(item);
    }
    parts.push(list);
  }
  out.replaceChildren(...parts);
}

/** Why nothing was answered, in the terms of knowledge.md "Search and answers". */
function reason(answer: Answer, found: Found[]): string {
  if (answer.Status === 'ERROR' || answer.Status === 'TIMEOUT') return 'The passages below are what the provider was given.';
  const under = underMinimum(answer);
  if (under !== null) return under;
  if (found.length === 0) return 'No passage shares a word with the question (common words such as "can", "I" or "the" do not count). Add a source that covers it, or ask in other words.';
  return 'The AI provider said these passages do not answer the question.';
}
