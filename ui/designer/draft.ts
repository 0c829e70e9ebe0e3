// The draft being edited: every edit a new bot (kept for undo and redo), the version the page
// started from (sent as If-Match), what was last saved (for the unsaved marker), and the
// conflict flow: when someone saved in between, their draft is loaded and this session's edits
// are laid over it interaction by interaction, so neither side's work is lost.
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../shared/api-client';
import { draftProblems, readDraft, saveDraft } from './api';
import { same, type Behaviour, type BotFile, type Problem } from './model';

const UNDO_LIMIT = 200;
const strip = (bot: BotFile): BotFile => {
  const { version: _version, ...file } = bot;
  return file as BotFile;
};
const text = (value: unknown) => JSON.stringify(value);

export interface Conflict {
  theirs: number;
  /** their draft, once asked for (to compare both) */
  file?: BotFile;
}
/** saved; saved with problems (kept, publishing waits); refused (not a draft at all: over a bound); conflict */
export type SaveOutcome = 'saved' | 'problems' | 'refused' | 'conflict';

/** Mine laid over theirs: what I changed since `base` (interactions, behaviours' own fields, top-level sections) wins. */
export function reapply(base: BotFile, mine: BotFile, theirs: BotFile): BotFile {
  const out = structuredClone(theirs);
  for (const key of Object.keys(mine)) if (key !== 'behaviours' && key !== 'version' && text(mine[key]) !== text(base[key])) out[key] = structuredClone(mine[key]);
  const find = (list: Behaviour[], name: string) => list.find((b) => same(b.name, name));
  for (const b of mine.behaviours) {
    const before = find(base.behaviours, b.name);
    const target = find(out.behaviours, b.name);
    if (!target) {
      if (!before || text(before) !== text(b)) out.behaviours.push(structuredClone(b));
      continue;
    }
    if (before) for (const key of Object.keys(b)) if (key !== 'interactions' && text(b[key]) !== text(before[key])) target[key] = structuredClone(b[key]);
    for (const i of b.interactions) {
      const was = before?.interactions.find((x) => same(x.name, i.name));
      if (was && text(was) === text(i)) continue;
      const at = target.interactions.findIndex((x) => same(x.name, i.name));
      if (at >= 0) target.interactions[at] = structuredClone(i);
      else target.interactions.push(structuredClone(i));
    }
    for (const was of before?.interactions ?? []) {
      if (!b.interactions.some((x) => same(x.name, was.name))) target.interactions = target.interactions.filter((x) => !same(x.name, was.name));
    }
  }
  for (const was of base.behaviours) if (!find(mine.behaviours, was.name)) out.behaviours = out.behaviours.filter((x) => !same(x.name, was.name));
  return out;
}

export function useDraft(botId: string, onSaved: () => void) {
  const [bot, setBot] = useState<BotFile | null>(null);
  const [version, setVersion] = useState(0);
  const [savedText, setSavedText] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [saving, setSaving] = useState(false);
  const past = useRef<BotFile[]>([]);
  const lastField = useRef<Element | null>(null);
  const future = useRef<BotFile[]>([]);
  const base = useRef<BotFile | null>(null);
  const current = useRef<BotFile | null>(null);
  current.current = bot;

  const load = useCallback(async () => {
    const file = await readDraft(botId);
    const clean = strip(file);
    base.current = clean;
    past.current = [];
    future.current = [];
    setBot(clean);
    setVersion(file.version ?? 0);
    setSavedText(text(clean));
    setConflict(null);
    // A draft saved with problems comes back with them (read apart: they are not part of the file).
    const found = await draftProblems(botId);
    setProblems(found.Version === file.version ? found.Problems : []);
  }, [botId]);

  const edit = useCallback((change: (bot: BotFile) => BotFile) => {
    const now = current.current;
    if (!now) return;
    // Keystrokes in one text field, one after another, are one edit for page undo.
    const field = document.activeElement?.matches('input, textarea') ? document.activeElement : null;
    const typingOn = field !== null && lastField.current === field && past.current.length > 0;
    lastField.current = field;
    if (!typingOn) past.current = [...past.current.slice(-UNDO_LIMIT + 1), now];
    future.current = [];
    setBot(change(now));
  }, []);

  const undo = useCallback(() => {
    const previous = past.current.pop();
    lastField.current = null;
    if (!previous || !current.current) return;
    future.current.push(current.current);
    setBot(previous);
  }, []);
  const redo = useCallback(() => {
    const next = future.current.pop();
    if (!next || !current.current) return;
    past.current.push(current.current);
    setBot(next);
  }, []);

  /** Saves (over the version `over` when given: keeping mine after a conflict); says whether the server took it, or why not. */
  const save = useCallback(
    async (over?: number): Promise<SaveOutcome> => {
      const sent = current.current;
      if (!sent) return 'refused';
      setSaving(true);
      try {
        // Kept even with problems (the console's draft route): the answer lists them.
        const answer = await saveDraft(botId, sent, over ?? version);
        setConflict(null);
        setVersion(answer.Version);
        setProblems(answer.Problems);
        // The server fills in ids of new buttons and inputs: take its copy unless edits went on meanwhile.
        const file = strip(await readDraft(botId));
        base.current = file;
        setSavedText(text(file));
        if (current.current === sent) setBot(file);
        onSaved();
        return answer.Problems.length > 0 ? 'problems' : 'saved';
      } catch (error) {
        if (error instanceof ApiError && error.code === 'INVALID_BOT') {
          setProblems(error.body.Problems ?? []);
          return 'refused';
        }
        if (error instanceof ApiError && error.code === 'VERSION_MISMATCH') {
          setConflict({ theirs: error.body.Version ?? 0 });
          return 'conflict';
        }
        throw error;
      } finally {
        setSaving(false);
      }
    },
    [botId, version, onSaved],
  );

  /** Loads the draft someone else saved and lays this session's edits over it (not saved yet). */
  const reloadAndReapply = useCallback(async () => {
    const file = await readDraft(botId);
    const theirs = strip(file);
    const merged = base.current && current.current ? reapply(base.current, current.current, theirs) : theirs;
    base.current = theirs;
    if (current.current) past.current.push(current.current);
    setBot(merged);
    setVersion(file.version ?? 0);
    setSavedText(text(theirs));
    setConflict(null);
  }, [botId]);

  /** Fetches their draft to show beside mine. */
  const compare = useCallback(async () => {
    const file = await readDraft(botId);
    setConflict({ theirs: file.version ?? 0, file: strip(file) });
  }, [botId]);

  /** Takes their draft as it is; mine stays one Undo away. */
  const takeTheirs = useCallback((theirs: BotFile, theirVersion: number) => {
    if (current.current) past.current.push(current.current);
    future.current = [];
    base.current = theirs;
    setBot(theirs);
    setVersion(theirVersion);
    setSavedText(text(theirs));
    setConflict(null);
  }, []);

  const unsaved = bot !== null && text(bot) !== savedText;
  /** After a publish or rollback: the bot's version moved on, the draft's content did not. */
  const adopt = useCallback((next: number) => setVersion(next), []);

  /** What a publish found that a save does not check (an agent's unknown MCP server): shown like a save's problems until the next save. */
  const publishRefused = useCallback((found: Problem[]) => setProblems(found), []);

  return { bot, version, unsaved, adopt, problems, publishRefused, conflict, saving, load, edit, undo, redo, save, reloadAndReapply, compare, takeTheirs, dismissConflict: () => setConflict(null) };
}
