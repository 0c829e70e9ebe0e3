// Scores beside the bot's minimum in the "Ask" box (knowledge.md "The minimum"): each passage's
// 0..1 score and whether it reaches the minimum, and, when nothing does, the plain reason
// ("No answer: the best passage scored 0.21, under this bot's minimum 0.40").
import type { Answer } from './api';
import { el } from './sources';

export const twoPlaces = (score: number): string => score.toFixed(2);

/** "Score 0.62" and, under the minimum, says so (not by colour alone). */
export function scoreTag(score: number, minScore: number): HTMLElement {
  const under = score < minScore;
  const tag = el('span', under ? 'score score-under' : 'score', `Score ${twoPlaces(score)}`);
  if (under) tag.append(el('span', 'score-note', ' (under the minimum)'));
  return tag;
}

/** The minimum the answer had to clear, said once under the verdict. */
export function minimumLine(answer: Answer): HTMLElement {
  const best = answer.Score === null ? 'search found no passage' : `the best passage scored ${twoPlaces(answer.Score)}`;
  return el('p', 'minimum', `Minimum score for an answer: ${twoPlaces(answer.MinScore)} (knowledge.minScore in the bot file); ${best}.`);
}

/** Why a NO_ANSWER was given when a passage was found but none was sure enough; null otherwise. */
export function underMinimum(answer: Answer): string | null {
  if (answer.Status !== 'NO_ANSWER' || answer.Score === null || answer.Score >= answer.MinScore) return null;
  return `No answer: the best passage scored ${twoPlaces(answer.Score)}, under this bot's minimum ${twoPlaces(answer.MinScore)}. Add a source that covers the question, or lower the minimum (knowledge.minScore) if the passage below does answer it.`;
}
