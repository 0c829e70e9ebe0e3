// The bot file as the designer edits it, and the pure operations on it: every edit makes a new
// bot (the old one is kept for undo), and every walk over actions goes through `eachAction`, so
// nested operations (onClick, then, else, onSuccess, onGiveUp, onError, onNoAnswer, buttons, cards) are
// found the same way by the canvas's edges, by rename and by problems.
export type Action = { type: string; [field: string]: unknown };
export interface Interaction {
  name: string;
  start?: boolean;
  fallback?: boolean;
  enableUserChat?: boolean;
  description?: string;
  actions: Action[];
}
export interface Behaviour {
  name: string;
  start?: boolean;
  description?: string;
  interactions: Interaction[];
  triggers?: Trigger[];
  [field: string]: unknown;
}
export interface Trigger {
  match?: unknown;
  actions?: Action[];
  [field: string]: unknown;
}
export interface BotFile {
  name: string;
  behaviours: Behaviour[];
  triggers?: Trigger[];
  version?: number;
  [field: string]: unknown;
}

/** Where an interaction is: indexes, stable while names change. */
export interface Place {
  b: number;
  i: number;
}
export const placeId = (p: Place) => `${p.b}/${p.i}`;

/** The fields of an action whose value is a list of actions run later (its operations). */
export const NESTED = ['onClick', 'then', 'else', 'onSuccess', 'onGiveUp', 'onError', 'onNoAnswer', 'actions'];

/** Calls `visit` for every action under `actions`, depth first, with the path of field names from it. */
export function eachAction(actions: readonly Action[], visit: (action: Action, via: string[]) => void, via: string[] = []): void {
  for (const action of actions) {
    visit(action, via);
    for (const field of NESTED) {
      const list = action[field];
      if (Array.isArray(list)) eachAction(list as Action[], visit, [...via, field]);
    }
    if (Array.isArray(action.buttons)) eachAction(action.buttons as Action[], visit, [...via, 'buttons']);
    if (Array.isArray(action.cards)) {
      for (const card of action.cards as { buttons?: Action[] }[]) if (Array.isArray(card?.buttons)) eachAction(card.buttons, visit, [...via, 'cards']);
    }
  }
}

export const same = (a: string | undefined, b: string | undefined) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** The interaction a literal absolute goTo names (its behaviour's start when it names none). */
export function goToTarget(bot: BotFile, action: Action, from: Place): Place | null {
  if (action.type !== 'goTo') return null;
  const mode = action.mode as string;
  const b = mode === 'absolute' ? bot.behaviours.findIndex((x) => same(x.name, action.behaviour as string)) : from.b;
  const behaviour = bot.behaviours[b];
  if (!behaviour) return null;
  let i = -1;
  if (mode === 'absolute') i = action.interaction ? behaviour.interactions.findIndex((x) => same(x.name, action.interaction as string)) : behaviour.interactions.findIndex((x) => x.start);
  else if (mode === 'start') i = behaviour.interactions.findIndex((x) => x.start);
  else if (mode === 'fallback') i = behaviour.interactions.findIndex((x) => x.fallback);
  return i >= 0 ? { b, i } : null;
}

export interface Path {
  from: Place;
  to: Place;
  label: string;
  kind: 'goTo' | 'button' | 'input' | 'trigger' | 'branch';
}

const KIND_OF: Record<string, Path['kind']> = {
  onClick: 'button',
  buttons: 'button',
  cards: 'button',
  onSuccess: 'input',
  onGiveUp: 'input',
  then: 'branch',
  else: 'branch',
  onError: 'branch',
  onNoAnswer: 'branch',
};

/** Every path between interactions: goTo actions, labelled by what leads to them. */
export function pathsOf(bot: BotFile): Path[] {
  const paths: Path[] = [];
  bot.behaviours.forEach((behaviour, b) => {
    behaviour.interactions.forEach((interaction, i) => {
      const from = { b, i };
      // The label is the nearest enclosing button's text, input or branch, else "goTo".
      const walk = (actions: readonly Action[], label: string, kind: Path['kind']) => {
        for (const action of actions) {
          const to = goToTarget(bot, action, from);
          if (to) paths.push({ from, to, label, kind });
          for (const field of NESTED) {
            const list = action[field];
            if (!Array.isArray(list)) continue;
            const inner = field === 'onClick' ? `“${String(action.text ?? '')}”` : field === 'onSuccess' ? 'answered' : field === 'onGiveUp' ? 'gave up' : field;
            walk(list as Action[], inner, KIND_OF[field] ?? kind);
          }
          if (Array.isArray(action.buttons)) walk(action.buttons as Action[], label, 'button');
          if (Array.isArray(action.cards)) for (const card of action.cards as { buttons?: Action[] }[]) walk(card?.buttons ?? [], label, 'button');
        }
      };
      walk(interaction.actions, 'goTo', 'goTo');
    });
    for (const trigger of behaviour.triggers ?? []) {
      eachAction(trigger.actions ?? [], (action) => {
        const to = goToTarget(bot, action, { b, i: -1 });
        if (to) paths.push({ from: { b, i: -1 }, to, label: `trigger ${String(typeof trigger.match === 'string' ? trigger.match : 'regex')}`, kind: 'trigger' });
      });
    }
  });
  return paths;
}

/** A copy of the bot with one interaction renamed and every literal goTo naming it renamed too. */
export function renameInteraction(bot: BotFile, at: Place, name: string): BotFile {
  const next = structuredClone(bot);
  const behaviour = next.behaviours[at.b];
  const old = behaviour.interactions[at.i].name;
  behaviour.interactions[at.i].name = name;
  const retarget = (action: Action, sameBehaviour: boolean) => {
    if (action.type !== 'goTo' || action.mode !== 'absolute' || !same(action.interaction as string, old)) return;
    if (same(action.behaviour as string, behaviour.name) || (sameBehaviour && !action.behaviour)) action.interaction = name;
  };
  next.behaviours.forEach((b, index) => {
    for (const interaction of b.interactions) eachAction(interaction.actions, (a) => retarget(a, index === at.b));
    for (const trigger of b.triggers ?? []) eachAction(trigger.actions ?? [], (a) => retarget(a, index === at.b));
  });
  for (const trigger of next.triggers ?? []) eachAction(trigger.actions ?? [], (a) => retarget(a, false));
  return next;
}

/** A copy of the bot with one behaviour renamed and every absolute goTo naming it renamed too. */
export function renameBehaviour(bot: BotFile, b: number, name: string): BotFile {
  const next = structuredClone(bot);
  const old = next.behaviours[b]!.name;
  next.behaviours[b]!.name = name;
  const retarget = (action: Action) => {
    if (action.type === 'goTo' && action.mode === 'absolute' && same(action.behaviour as string, old)) action.behaviour = name;
  };
  for (const x of next.behaviours) {
    for (const interaction of x.interactions) eachAction(interaction.actions, retarget);
    for (const trigger of x.triggers ?? []) eachAction(trigger.actions ?? [], retarget);
  }
  for (const trigger of next.triggers ?? []) eachAction(trigger.actions ?? [], retarget);
  return next;
}

/** A name like `base` not yet used in the behaviour. */
export function freeName(behaviour: Behaviour, base: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} ${n}`;
    if (!behaviour.interactions.some((x) => same(x.name, name))) return name;
  }
}

/** A problem's JSONPath ($.behaviours[0].interactions[1].actions[2].text) as segments. */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]!.replace(/\\(.)/g, '$1')));
  return out;
}

export interface Problem {
  Path: string;
  Message: string;
}

/** The interaction a problem is in, if any, and the rest of its path from the interaction's actions. */
export function problemPlace(problem: Problem): { place: Place | null; rest: (string | number)[] } {
  const s = pathSegments(problem.Path);
  if (s[0] === 'behaviours' && typeof s[1] === 'number' && s[2] === 'interactions' && typeof s[3] === 'number') return { place: { b: s[1], i: s[3] }, rest: s.slice(4) };
  return { place: null, rest: s };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether every list of actions under `actions` (operations, buttons, cards) holds objects only. */
function actionsShaped(actions: unknown): boolean {
  if (!Array.isArray(actions)) return false;
  return actions.every(
    (a) =>
      isRecord(a) &&
      [...NESTED, 'buttons'].every((f) => a[f] === undefined || !Array.isArray(a[f]) || actionsShaped(a[f])) &&
      (!Array.isArray(a.cards) || a.cards.every((c) => !isRecord(c) || !Array.isArray(c.buttons) || actionsShaped(c.buttons))),
  );
}

/**
 * Whether the forms, the outline and the canvas can show this draft: behaviours and interactions
 * as lists of named objects, actions as lists of objects. A draft saved with problems in the
 * source view may be anything else (issue 37 item 6); then only the source view shows it.
 */
export function formsCanShow(bot: unknown): bot is BotFile {
  if (!isRecord(bot) || !Array.isArray(bot.behaviours)) return false;
  if (bot.triggers !== undefined && !(Array.isArray(bot.triggers) && bot.triggers.every((t) => isRecord(t) && (t.actions === undefined || actionsShaped(t.actions))))) return false;
  return bot.behaviours.every(
    (b) =>
      isRecord(b) &&
      typeof b.name === 'string' &&
      Array.isArray(b.interactions) &&
      (b.triggers === undefined || (Array.isArray(b.triggers) && b.triggers.every((t) => isRecord(t) && (t.actions === undefined || actionsShaped(t.actions))))) &&
      b.interactions.every((i) => isRecord(i) && typeof i.name === 'string' && actionsShaped(i.actions)),
  );
}
