// The designer for one bot: toolbar (save, undo, publish), the outline and canvas of the draft,
// and a side panel with the selected interaction, the preview chat or the versions.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useDraft } from './draft';
import { BotPanel } from './bot-panel';
import { deadEnds, localProblems } from './checks';
import { ConflictPanel } from './conflict';
import { Inspector } from './inspector';
import { formsCanShow, freeName, placeId, problemPlace, same, type BotFile, type Place } from './model';
import { ProblemsBanner, WarningsBanner } from './problems';
import { Outline } from './outline';
import { Preview } from './preview';
import { publishing } from './publishing';
import type { BotSchema } from './schema';
import { useDraftShortcuts } from './shortcuts';
import { useStepLinks } from './step-link';
import { Toolbar } from './toolbar';
import { showTriggers, TriggersNotice } from './triggers';

const Canvas = lazy(() => import('./canvas'));
const Versions = lazy(() => import('./versions'));
const InstallPanel = lazy(() => import('./install'));
const Source = lazy(() => import('./source'));

type Tab = 'step' | 'bot' | 'preview' | 'versions' | 'install';
const TAB_NAMES: Record<Tab, string> = { step: 'Interaction', bot: 'Bot', preview: 'Preview', versions: 'Versions', install: 'Install' };

export function Designer({ botId, schema, say }: { botId: string; schema: BotSchema; say: (text: string, error?: boolean) => void }) {
  const [generation, setGeneration] = useState(0);
  const draft = useDraft(
    botId,
    useCallback(() => setGeneration((g) => g + 1), []),
  );
  const { bot, edit } = draft;
  const [selected, setSelected] = useState<Place | null>(null);
  const [heard, setHeard] = useState<Place | null>(null);
  // '#install' opens the Install tab (the empty inbox links there: issue 37)
  const [tab, setTab] = useState<Tab>(() => (location.hash === '#install' ? 'install' : 'step'));
  const [view, setView] = useState<'flow' | 'source'>('flow');

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per bot; draft.load and say are new functions at every render
  useEffect(() => {
    setSelected(null);
    draft.load().then(
      () => setSelected({ b: 0, i: 0 }),
      (e: Error) => say(e.message, true),
    );
  }, [botId]);

  // The page's own checks as one types, and the server's from the last save (server's words win).
  const local = useMemo(() => (bot && formsCanShow(bot) ? localProblems(schema.root, bot) : []), [bot, schema.root]);
  const warnings = useMemo(() => (bot && formsCanShow(bot) ? deadEnds(bot) : []), [bot]);
  const allProblems = useMemo(() => [...new Map([...local, ...draft.problems].map((p) => [p.Path, p])).values()], [local, draft.problems]);
  const problems = useMemo(() => new Map(allProblems.map((p) => [p.Path, p.Message])), [allProblems]);
  const problemCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const p of allProblems) {
      const { place } = problemPlace(p);
      if (place) counts.set(placeId(place), (counts.get(placeId(place)) ?? 0) + 1);
    }
    return counts;
  }, [allProblems]);

  // The one save status (issue 37): the toolbar's, beside Save. A save that did not happen says
  // why there until the next save; the page's status line is for everything else.
  const [notSaved, setNotSaved] = useState('');
  const save = useCallback(
    async (over?: number) => {
      setNotSaved('');
      try {
        const outcome = await draft.save(over);
        if (outcome === 'refused') setNotSaved('Not saved: see the problems.');
        if (outcome === 'conflict') setNotSaved('Not saved: someone else saved this draft meanwhile.');
        return outcome;
      } catch (e) {
        setNotSaved(`Not saved: ${(e as Error).message}`);
        return 'failed' as const;
      }
    },
    [draft.save],
  );
  const saveStatus = draft.saving
    ? 'Saving…'
    : notSaved ||
      (draft.unsaved ? '● Unsaved changes' : draft.problems.length > 0 ? `Saved, with problems (draft v${draft.version}): publishing waits until they are fixed.` : `Saved (draft v${draft.version})`);

  const { publish, rollback } = publishing({
    botId,
    localCount: local.length,
    allCount: allProblems.length,
    unsaved: draft.unsaved,
    save,
    adopt: (version) => {
      draft.adopt(version);
      setGeneration((g) => g + 1);
    },
    refused: draft.publishRefused,
    say,
  });

  useDraftShortcuts({ save, undo: draft.undo, redo: draft.redo, unsaved: draft.unsaved });
  useStepLinks(bot, (place) => {
    setSelected(place);
    setTab('step');
  });

  if (!bot) return <p className="hint">Loading the draft…</p>;
  const open = (place: Place | null) => {
    if (place) setSelected(place);
    setTab(place ? 'step' : 'bot');
  };
  const banner = (
    <>
      <ProblemsBanner problems={allProblems} onOpen={open} />
      <WarningsBanner warnings={warnings} onOpen={open} />
    </>
  );
  const here = selected && formsCanShow(bot) && bot.behaviours[selected.b]?.interactions[selected.i] ? selected : null;

  /** The outline and the canvas choose alike: the step, and its form beside. */
  const choose = (place: Place) => {
    setSelected(place);
    setTab('step');
  };
  const addInteraction = (b: number) => {
    const name = freeName(bot.behaviours[b]!, 'New step');
    edit((x: BotFile) => ({ ...x, behaviours: x.behaviours.map((y, bi) => (bi !== b ? y : { ...y, interactions: [...y.interactions, { name, actions: [{ type: 'text', text: '' }] }] })) }));
    choose({ b, i: bot.behaviours[b]!.interactions.length });
  };
  const addBehaviour = (name: string): string | null => {
    if (!name) return 'Give the behaviour a name.';
    if (bot.behaviours.some((b) => same(b.name, name))) return 'Another behaviour has that name.';
    edit((x) => ({ ...x, behaviours: [...x.behaviours, { name, interactions: [{ name: 'Start', start: true, actions: [] }] }] }));
    choose({ b: bot.behaviours.length, i: 0 });
    return null;
  };
  const connect = (from: Place, to: Place) => {
    const target = bot.behaviours[to.b]!;
    edit((x) => ({
      ...x,
      behaviours: x.behaviours.map((y, bi) =>
        bi !== from.b
          ? y
          : {
              ...y,
              interactions: y.interactions.map((z, ii) =>
                ii !== from.i ? z : { ...z, actions: [...z.actions, { type: 'goTo', mode: 'absolute', behaviour: target.name, interaction: target.interactions[to.i]!.name }] },
              ),
            },
      ),
    }));
  };
  const heardAt = (source: { Behaviour: string; Interaction: string }) => {
    const b = bot.behaviours.findIndex((x) => same(x.name, source.Behaviour));
    const i = b >= 0 ? bot.behaviours[b]!.interactions.findIndex((x) => same(x.name, source.Interaction)) : -1;
    setHeard(i >= 0 ? { b, i } : null);
  };
  const forms = { root: schema.root, actionTypes: schema.actionTypes, bot, problems };

  return (
    <>
      <Toolbar
        saving={draft.saving}
        status={saveStatus}
        pending={draft.unsaved}
        failed={notSaved !== ''}
        sourceShown={view === 'source'}
        onSave={() => void save()}
        onUndo={draft.undo}
        onRedo={draft.redo}
        onToggleSource={() => setView((v) => (v === 'flow' ? 'source' : 'flow'))}
        onPublish={() => void publish()}
      />
      {draft.conflict && (
        <ConflictPanel
          conflict={draft.conflict}
          mine={bot}
          onReapply={() =>
            draft.reloadAndReapply().then(
              () => say('Their draft is loaded with your edits on top: check, then save.'),
              (e: Error) => say(e.message, true),
            )
          }
          onCompare={() => draft.compare().catch((e: Error) => say(e.message, true))}
          onKeepMine={(over) => void save(over)}
          onTakeTheirs={(theirs, version) => {
            draft.takeTheirs(theirs, version);
            say('Their draft is loaded; Undo brings yours back.');
          }}
          onDismiss={draft.dismissConflict}
        />
      )}
      {banner}
      {!formsCanShow(bot) ? (
        <div className="designer source-only">
          <p className="hint">This draft is not yet a list of behaviours with interactions and actions, so only its source can be shown: fix it here.</p>
          <Suspense fallback={<div className="source hint">Loading the editor…</div>}>
            <Source bot={bot} schema={schema.root} onChange={(next) => edit(() => next)} />
          </Suspense>
        </div>
      ) : (
        <>
          {view === 'flow' && (
            <TriggersNotice
              bot={bot}
              onShow={() => {
                setTab('bot');
                showTriggers();
              }}
            />
          )}
          <div className="designer">
            <Outline bot={bot} selected={here} heard={heard} problemCounts={problemCounts} onSelect={choose} onAddInteraction={addInteraction} onAddBehaviour={addBehaviour} />
            {view === 'flow' ? (
              <Suspense fallback={<div className="canvas hint">Drawing the flow…</div>}>
                <Canvas bot={bot} selected={here} heard={heard} problemCounts={problemCounts} onSelect={choose} onConnect={connect} />
              </Suspense>
            ) : (
              <Suspense fallback={<div className="source hint">Loading the editor…</div>}>
                <Source bot={bot} schema={schema.root} onChange={(next) => edit(() => next)} />
              </Suspense>
            )}
            <aside className="side">
              <div className="tabs" role="tablist" aria-label="Side panel">
                {(Object.keys(TAB_NAMES) as Tab[]).map((t) => (
                  <button key={t} type="button" role="tab" id={`tab-${t}`} aria-selected={tab === t} aria-controls="side-panel" onClick={() => setTab(t)}>
                    {TAB_NAMES[t]}
                  </button>
                ))}
              </div>
              <div id="side-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
                {tab === 'step' &&
                  (here ? <Inspector context={forms} here={here} edit={edit} onDeleted={() => setSelected(null)} /> : <p className="hint">Choose an interaction in the list or on the canvas.</p>)}
                {tab === 'bot' && <BotPanel context={forms} botId={botId} edit={edit} onBehaviourDeleted={(b) => setSelected((s) => (s && s.b >= b ? null : s))} />}
                <div hidden={tab !== 'preview'}>
                  <Preview botId={botId} beforeSend={async () => !draft.unsaved || (await save()) === 'saved'} onHeard={heardAt} />
                </div>
                {tab === 'versions' && (
                  <Suspense fallback={<p className="hint">Loading versions…</p>}>
                    <Versions botId={botId} generation={generation} onRollback={rollback} />
                  </Suspense>
                )}
                {tab === 'install' && (
                  <Suspense fallback={<p className="hint">Loading…</p>}>
                    <InstallPanel botId={botId} bot={bot} edit={edit} unsaved={draft.unsaved} />
                  </Suspense>
                )}
              </div>
            </aside>
          </div>
        </>
      )}
    </>
  );
}
