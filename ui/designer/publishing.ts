// Publish and roll back from the designer: what is unsaved is saved first, the problems known
// refuse a publish, and the versions are said as a person counts publishes (1, 2, 3…).
import { ApiError } from '../shared/api-client';
import { publish as publishDraft, publishedNumber, publishedVersions, rollBack } from './api';
import type { SaveOutcome } from './draft';
import type { Problem } from './model';

const refusedFor = (count: number) => `Publish refused: the draft has ${count} problem${count > 1 ? 's' : ''}; fix ${count > 1 ? 'them' : 'it'} first (see the list of problems).`;

interface Publishing {
  botId: string;
  /** problems the page found itself (known without asking the server) */
  localCount: number;
  /** every problem known: the page's and the server's from the last save */
  allCount: number;
  unsaved: boolean;
  save: () => Promise<SaveOutcome | 'failed'>;
  /** the draft now stands on this version (after a publish or a rollback) */
  adopt: (version: number) => void;
  /** the server's problems of a refused publish, shown at their fields like a save's */
  refused: (problems: Problem[]) => void;
  say: (text: string, error?: boolean) => void;
}

export function publishing({ botId, localCount, allCount, unsaved, save, adopt, refused, say }: Publishing) {
  const publish = async () => {
    // What is unsaved is saved first (kept even with problems); then the problems known refuse it,
    // and the server, which is the judge, refuses any it finds.
    if (localCount > 0) return say(refusedFor(allCount), true); // known here: no need to ask
    const outcome = unsaved ? await save() : 'saved';
    if (outcome !== 'saved' && outcome !== 'problems') return say('Publish refused: the draft could not be saved.', true);
    if (allCount > 0) return say(refusedFor(allCount), true);
    try {
      const { Version } = await publishDraft(botId);
      adopt(Version);
      const number = publishedNumber(await publishedVersions(botId), Version);
      say(`Published version ${number ?? Version}.`);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'INVALID_BOT' && Array.isArray(e.body.Problems)) refused(e.body.Problems);
      say(e instanceof ApiError && e.code === 'INVALID_BOT' ? refusedFor(e.body.Problems?.length ?? 1) : (e as Error).message, true);
    }
  };

  const rollback = async (version: number) => {
    try {
      const answer = await rollBack(botId, version);
      adopt(answer.Version);
      const versions = await publishedVersions(botId);
      say(`Rolled back: version ${publishedNumber(versions, answer.Version) ?? answer.Version} has the content of version ${publishedNumber(versions, version) ?? version}.`);
    } catch (e) {
      say((e as Error).message, true);
    }
  };
  return { publish, rollback };
}
