// Rasa rules and stories → a tree of turns (importers.md "Rasa"): each path of intents from the
// start of a story is one node, holding the actions the bot runs after that intent. Stories that
// share a beginning share its nodes, so "greet → mood_unhappy → affirm" and "greet → mood_unhappy
// → deny" hang under one "greet → mood_unhappy". Each node with actions becomes an interaction;
// convert.ts makes the intent triggers that reach it.
import type { ReportBuilder } from '../report.js';
import { listAt, objAt, textAt } from '../shared.js';

export interface StepAction {
  name: string;
  path: string;
}

export interface TurnNode {
  intent: string;
  /** the intents from the story's start to here */
  trail: string[];
  parent: TurnNode | null;
  actions: StepAction[];
  children: Map<string, TurnNode>;
  /** the step that made the node, for the report */
  path: string;
}

export interface StorySource {
  file: string;
  /** `stories` or `rules` */
  key: string;
  items: unknown[];
}

export function buildTurnTree(sources: StorySource[], report: ReportBuilder): TurnNode {
  const root: TurnNode = { intent: '', trail: [], parent: null, actions: [], children: new Map(), path: '' };
  for (const { file, key, items } of sources) {
    items.forEach((raw, s) => {
      const story = objAt(raw);
      const storyPath = `${file}: $.${key}[${s}]`;
      if (story.condition !== undefined)
        report.skip(
          `${storyPath}.condition`,
          `the condition of ${key === 'rules' ? 'rule' : 'story'} "${String(story.rule ?? story.story ?? s).slice(0, 60)}"`,
          'its steps run whatever the slots hold',
        );
      if (story.conversation_start === true) report.change(`${storyPath}.conversation_start`, 'a rule for the start of a conversation', 'it applies at any point of the conversation');
      // each place the story is at (an `or` step makes several)
      let at: Array<{ node: TurnNode; next: number }> = [{ node: root, next: 0 }];
      listAt(story.steps).forEach((rawStep, i) => {
        const step = objAt(rawStep);
        const path = `${storyPath}.steps[${i}]`;
        if (textAt(step.intent)) at = at.map(({ node }) => ({ node: child(node, textAt(step.intent)!, path), next: 0 }));
        else if (Array.isArray(step.or)) {
          const intents = step.or.map((o) => textAt(objAt(o).intent)).filter((x): x is string => x !== null);
          at = at.flatMap(({ node }) => intents.map((intent) => ({ node: child(node, intent, path), next: 0 })));
        } else if (textAt(step.action)) {
          for (const place of at) addAction(place, { name: textAt(step.action)!, path }, report);
        } else if (step.checkpoint !== undefined)
          report.skip(path, `the checkpoint "${String(step.checkpoint).slice(0, 60)}"`, 'checkpoints are not carried: join the stories by hand with goTo steps');
        else if (step.slot_was_set !== undefined) report.skip(path, 'a slot_was_set step', 'the branches of the story do not depend on slots: use a variableSwitch');
        else if (step.active_loop !== undefined || step.user !== undefined || step.bot !== undefined) {
          // the form's own start and end (active_loop), and test-story texts: no content of their own
        } else report.skip(path, 'a step', 'it is not an intent, an action, an `or` or a checkpoint');
      });
    });
  }
  return root;
}

function child(node: TurnNode, intent: string, path: string): TurnNode {
  const found = node.children.get(intent);
  if (found) return found;
  const made: TurnNode = { intent, trail: [...node.trail, intent], parent: node, actions: [], children: new Map(), path };
  node.children.set(intent, made);
  return made;
}

/** A story's action at this point: the same as an earlier story's (shared), new, or a conflict. */
function addAction(place: { node: TurnNode; next: number }, action: StepAction, report: ReportBuilder): void {
  const { node } = place;
  if (node === undefined || node.intent === '') {
    report.skip(action.path, `the action ${action.name.slice(0, 60)}`, 'it comes before any intent: the bot speaks first from its start interaction');
    return;
  }
  const existing = node.actions[place.next];
  if (existing === undefined) node.actions.push(action);
  else if (existing.name !== action.name) {
    report.skip(action.path, `the action ${action.name.slice(0, 60)}`, `another story runs ${existing.name.slice(0, 60)} here after "${node.trail.join(' > ').slice(0, 100)}": the first one is kept`);
    return;
  }
  place.next++;
}

/** Every node below the root, parents before children. */
export function nodesOf(root: TurnNode): TurnNode[] {
  const out: TurnNode[] = [];
  const pending = [...root.children.values()];
  while (pending.length > 0) {
    const node = pending.shift()!;
    out.push(node);
    pending.push(...node.children.values());
  }
  return out;
}
