// No hidden triggers (issue 36): the triggers that can take a conversation away from wherever it
// stands — the bot's own, and each behaviour's — with what they match, when they count and where
// they go, plus the intents they name, in plain words. Each links to its form, where it is edited.
// The flow view shows a one-line notice of the bot-level ones, which otherwise no node shows.
import { fieldId } from './form-context';
import type { Action, BotFile, Trigger } from './model';
import { jsonPath } from './schema';
import './triggers.css';

export interface TriggerSummary {
  /** the JSON path of the trigger: its form's fields have ids that start from it */
  path: string;
  /** the behaviour holding it; null for the bot's own */
  behaviour: string | null;
  kind: 'keyword' | 'regex' | 'intent';
  /** what it matches, in words */
  matches: string;
  /** the alternatives, pattern or intent name as written */
  label: string;
  /** when it counts */
  when: string;
  /** what it does */
  does: string;
}

const quoted = (text: string) => `“${text}”`;

/** The triggers of the bot file in check order for a behaviour's conversation: its own, then the bot's. */
export function summarizeTriggers(bot: BotFile): TriggerSummary[] {
  const threshold = typeof (bot.nlp as { threshold?: unknown } | undefined)?.threshold === 'number' ? (bot.nlp as { threshold: number }).threshold : 0.7;
  const one = (trigger: Trigger, path: string, behaviour: string | null): TriggerSummary => {
    const { kind, label, matches } = matching(trigger, threshold);
    const waits = trigger.whileWaiting === true ? 'also while a question waits for an answer' : 'not while a question waits for an answer';
    const keeps = typeof trigger.variable === 'string' && trigger.variable !== '' ? `; keeps the text in ${trigger.variable}` : '';
    return {
      path,
      behaviour,
      kind,
      label,
      matches,
      when: `Counts ${behaviour === null ? 'anywhere in the conversation' : `while in ${behaviour}`}, ${waits}${keeps}.`,
      does: effectOf(trigger.actions ?? []),
    };
  };
  return [
    ...(bot.triggers ?? []).map((t, n) => one(t, jsonPath('$.triggers', n), null)),
    ...bot.behaviours.flatMap((b, bi) => (b.triggers ?? []).map((t, n) => one(t, jsonPath(`$.behaviours[${bi}].triggers`, n), b.name))),
  ];
}

function matching(trigger: Trigger, threshold: number): Pick<TriggerSummary, 'kind' | 'label' | 'matches'> {
  if (typeof trigger.intent === 'string') {
    const min = typeof trigger.minScore === 'number' ? trigger.minScore : null;
    return { kind: 'intent', label: trigger.intent, matches: `Intent ${trigger.intent}, at a score of ${min ?? threshold} or more${min === null ? ' (the bot’s threshold)' : ''}` };
  }
  const match = trigger.match;
  if (typeof match === 'object' && match !== null && typeof (match as { regex?: unknown }).regex === 'string') {
    const regex = (match as { regex: string }).regex;
    return { kind: 'regex', label: regex, matches: `Pattern /${regex}/ found in the text` };
  }
  const words =
    typeof match === 'string'
      ? match
          .split('|')
          .map((w) => w.trim())
          .filter(Boolean)
      : [];
  const list = words.length <= 1 ? quoted(words[0] ?? '') : `${words.slice(0, -1).map(quoted).join(', ')} or ${quoted(words[words.length - 1]!)}`;
  return { kind: 'keyword', label: typeof match === 'string' ? match : '', matches: `The whole text is ${list} (any case)` };
}

/** What the trigger says first (shortened) and where it goes (its first goTo), in one sentence. */
function effectOf(actions: readonly Action[]): string {
  const said = actions.find((a) => a.type === 'text' && (typeof a.text === 'string' || Array.isArray(a.texts)));
  const text = said ? String(said.text ?? (said.texts as unknown[])[0] ?? '') : '';
  const says = said ? `Says ${quoted(text.length > 120 ? `${text.slice(0, 119)}…` : text)}` : '';
  const goTo = actions.find((a) => a.type === 'goTo');
  if (goTo) {
    const mode = String(goTo.mode ?? 'absolute');
    const where =
      mode === 'absolute'
        ? `${String(goTo.behaviour ?? '')} › ${goTo.interaction ? String(goTo.interaction) : 'its start'}`
        : `the ${mode} interaction${mode === 'previous' || mode === 'bookmark' ? '' : ' of the current behaviour'}`;
    return says ? `${says}, then goes to ${where}.` : `Goes to ${where}.`;
  }
  if (says) return `${says} and stays where the conversation was.`;
  return actions.length === 0 ? 'Does nothing (it has no actions).' : `Runs ${actions.length} action${actions.length > 1 ? 's' : ''} where the conversation is.`;
}

/** Focuses the first field of the form at `path` (on the Bot tab), after React has drawn it. */
export function jumpTo(path: string): void {
  const find = () => document.querySelector<HTMLElement>(`[id^="${fieldId(path)}"]:is(input, select, textarea)`);
  const go = (tries: number) => {
    const field = find();
    if (field) {
      field.scrollIntoView({ block: 'center' });
      field.focus();
    } else if (tries > 0) requestAnimationFrame(() => go(tries - 1));
  };
  go(10);
}

interface IntentSummary {
  name: string;
  path: string;
  examples: string[];
}

function namedIntents(bot: BotFile, triggers: TriggerSummary[]): IntentSummary[] {
  const intents = (bot.nlp as { intents?: { name?: unknown; examples?: unknown }[] } | undefined)?.intents ?? [];
  const named = new Set(triggers.filter((t) => t.kind === 'intent').map((t) => t.label.toLowerCase()));
  return intents.flatMap((intent, n) =>
    typeof intent?.name === 'string' && named.has(intent.name.toLowerCase())
      ? [{ name: intent.name, path: jsonPath('$.nlp.intents', n), examples: Array.isArray(intent.examples) ? intent.examples.filter((e): e is string => typeof e === 'string') : [] }]
      : [],
  );
}

/** The Bot tab's first section: every trigger and the intents they name, each a link to its form. */
export function TriggersSummary({ bot }: { bot: BotFile }) {
  const triggers = summarizeTriggers(bot);
  const intents = namedIntents(bot, triggers);
  const own = triggers.filter((t) => t.behaviour === null);
  const item = (t: TriggerSummary, n: number) => (
    <li key={t.path} className={`trigger ${t.kind}`}>
      <span className="what">{t.matches}</span>
      <span className="does">{t.does}</span>
      <span className="hint">{t.when}</span>
      <button type="button" className="secondary small" onClick={() => jumpTo(t.path)}>
        Edit trigger {n + 1}
        {t.behaviour ? ` of ${t.behaviour}` : ''}
      </button>
    </li>
  );
  return (
    <section className="triggers-summary" aria-labelledby="triggers-summary-title">
      <h3 id="triggers-summary-title" tabIndex={-1}>
        Triggers: what can take a conversation away
      </h3>
      <p className="hint">
        Every user text is checked against these first, in this order: the current behaviour’s own, then the bot’s. The first that matches runs instead of the step the conversation is at.
      </p>
      {triggers.length === 0 && <p className="hint">This bot has no triggers: only the flow decides.</p>}
      {own.length > 0 && <h4>The whole bot ({own.length})</h4>}
      {own.length > 0 && <ol className="trigger-list">{own.map(item)}</ol>}
      {triggers.some((t) => t.behaviour !== null) && <h4>Behaviours’ own</h4>}
      {triggers.some((t) => t.behaviour !== null) && (
        <ol className="trigger-list">{triggers.filter((t) => t.behaviour !== null).map((t) => item(t, triggers.filter((x) => x.behaviour === t.behaviour).indexOf(t)))}</ol>
      )}
      {intents.length > 0 && (
        <>
          <h4>Intents these triggers name</h4>
          <ul className="trigger-list">
            {intents.map((intent) => (
              <li key={intent.path} className="trigger intent">
                <span className="what">{intent.name}</span>
                <span className="hint">
                  {intent.examples.length} example{intent.examples.length === 1 ? '' : 's'}
                  {intent.examples.length > 0 ? `, like ${intent.examples.slice(0, 3).map(quoted).join(', ')}` : ''}
                </span>
                <button type="button" className="secondary small" onClick={() => jumpTo(intent.path)}>
                  Edit intent {intent.name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** One line in the flow view: the bot-level triggers no node shows, with a way to see them. */
export function TriggersNotice({ bot, onShow }: { bot: BotFile; onShow: () => void }) {
  const count = bot.triggers?.length ?? 0;
  if (count === 0) return null;
  return (
    <p className="triggers-notice">
      <span>
        {count} bot-level trigger{count > 1 ? 's' : ''} can take a conversation away from any point.
      </span>{' '}
      <button type="button" className="secondary small" onClick={onShow}>
        Show {count > 1 ? 'them' : 'it'}
      </button>
    </p>
  );
}

/** After the Bot tab is drawn: its triggers section, focused. */
export function showTriggers(): void {
  const go = (tries: number) => {
    const heading = document.getElementById('triggers-summary-title');
    if (heading) {
      heading.scrollIntoView({ block: 'start' });
      heading.focus();
    } else if (tries > 0) requestAnimationFrame(() => go(tries - 1));
  };
  go(10);
}
