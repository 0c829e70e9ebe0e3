// A Typebot export (one typebot's JSON, schema version 5 and later) → a bot file and its report
// (importers.md "Typebot"). Pure: no I/O. Each group becomes an interaction and its blocks the
// actions in order (blocks.ts); what follows an input or a choice in the same group becomes an
// interaction of its own ("… (after block 3)"), reached when the answer comes: nesting the rest of
// a group inside onSuccess would make a long group as deep as it has inputs.
import type { Action, Interaction } from '../../engine/bot-file.js';
import { ImportRefusal } from '../refusal.js';
import type { Conversion } from '../model.js';
import { NameBook, cleanName } from '../names.js';
import { ReportBuilder } from '../report.js';
import { goToInteraction, isObj, listAt, objAt, oneBehaviourBot, textAt, variableName, type Obj } from '../shared.js';
import { convertBlock, type BlockContext } from './blocks.js';

/** The newest schema version this converter knows (importers.md: newer → IMPORT_UNSUPPORTED). */
export const NEWEST_TYPEBOT_VERSION = '6.1';
const OLDEST_MAJOR = 5;

/** Whether a parsed document looks like a Typebot export. */
export const isTypebotExport = (doc: unknown): boolean => isObj(doc) && Array.isArray(doc.groups) && ('edges' in doc || 'events' in doc || 'typebot' in doc);

export function checkTypebotVersion(version: unknown, file: string): void {
  const text = textAt(version);
  const [major, minor] = (text ?? '').split('.').map((n) => Number(n));
  const known = major !== undefined && Number.isInteger(major) && (minor === undefined || Number.isInteger(minor));
  if (!known || major! < OLDEST_MAJOR)
    throw new ImportRefusal('IMPORT_UNSUPPORTED', `Typebot schema version ${JSON.stringify(text ?? 'none')} is older than 5: open the typebot in a current Typebot and export it again.`, {
      File: file,
      Path: '$.version',
      Version: text ?? null,
    });
  const [newMajor, newMinor] = NEWEST_TYPEBOT_VERSION.split('.').map(Number) as [number, number];
  if (major! > newMajor || (major === newMajor && (minor ?? 0) > newMinor)) {
    throw new ImportRefusal('IMPORT_UNSUPPORTED', `Typebot schema version ${text} is newer than the newest this server knows (${NEWEST_TYPEBOT_VERSION}).`, {
      File: file,
      Path: '$.version',
      Version: text,
    });
  }
}

export function convertTypebot(doc: unknown, file = 'typebot.json'): Conversion {
  const root = isObj(doc) && isObj(doc.typebot) ? doc.typebot : objAt(doc);
  checkTypebotVersion(root.version, file);
  const report = new ReportBuilder();
  const at = (path: string) => `${file}: $${path}`;
  const groups = listAt(root.groups).map(objAt);
  const edges = new Map(
    listAt(root.edges)
      .map(objAt)
      .map((e) => [textAt(e.id) ?? '', objAt(e.to)]),
  );
  const variables = new Map<string, string>();
  const defaults: Record<string, string> = {};
  listAt(root.variables).forEach((v, i) => {
    const variable = objAt(v);
    const name = variableName(variable.name, at(`.variables[${i}].name`), report);
    variables.set(textAt(variable.id) ?? '', name);
    const value = textAt(variable.value);
    if (value !== null && value !== '') defaults[name] = value;
  });

  // A version-5 export holds its start as a block of its own in the first group.
  const startBlockGroup = groups.findIndex((g) => listAt(g.blocks).some((b) => objAt(b).type === 'start'));
  const names = new NameBook(report, 'interaction');
  const groupName = new Map<string, string>();
  groups.forEach((g, gi) => {
    if (gi === startBlockGroup && listAt(g.blocks).length === 1) return;
    groupName.set(textAt(g.id) ?? `#${gi}`, names.name(g.title, at(`.groups[${gi}].title`), `Group ${gi + 1}`));
  });
  const groupIndex = new Map(groups.map((g, gi) => [textAt(g.id) ?? `#${gi}`, gi]));

  const interactions: Interaction[] = [];
  const parts = new Map<string, string>();
  const pending: Array<{ gi: number; from: number; name: string }> = [];
  /** The interaction that runs group `gi` from block `from` on (made once, converted later). */
  const partOf = (gi: number, from: number): string | null => {
    const id = textAt(groups[gi]?.id) ?? `#${gi}`;
    if (from === 0) return groupName.get(id) ?? null;
    const key = `${gi}:${from}`;
    if (!parts.has(key)) {
      const name = names.name(`${groupName.get(id) ?? `Group ${gi + 1}`} (after block ${from})`, at(`.groups[${gi}].blocks[${from}]`), `Group ${gi + 1} (after block ${from})`);
      parts.set(key, name);
      pending.push({ gi, from, name });
    }
    return parts.get(key)!;
  };
  const jumpTo = (groupId: unknown, blockId: unknown, path: string): Action[] => {
    const gi = groupIndex.get(textAt(groupId) ?? '');
    if (gi === undefined) {
      report.skip(path, 'a jump or edge', 'it leads to a group the export does not have');
      return [];
    }
    const from = blockId ? listAt(groups[gi]!.blocks).findIndex((b) => objAt(b).id === blockId) : 0;
    const target = partOf(gi, Math.max(0, from));
    return target ? [goToInteraction(target)] : [];
  };
  const webhooks = new Map(
    listAt(root.webhooks)
      .map(objAt)
      .map((w) => [textAt(w.id) ?? '', w]),
  );
  const ctx: BlockContext = {
    report,
    variable: (id) => variables.get(textAt(id) ?? '') ?? null,
    edge: (edgeId, path) => {
      const to = edges.get(textAt(edgeId) ?? '');
      if (!to) {
        report.skip(path, 'an edge', 'the export has no edge with this id');
        return [];
      }
      return jumpTo(to.groupId, to.blockId, path);
    },
    jump: jumpTo,
    webhook: (id) => webhooks.get(textAt(id) ?? '') ?? null,
  };

  const convertFrom = (gi: number, from: number): Action[] => {
    const blocks = listAt(groups[gi]!.blocks).map(objAt);
    const actions: Action[] = [];
    for (let i = from; i < blocks.length; i++) {
      const block = blocks[i]!;
      if (block.type === 'start') continue;
      const path = at(`.groups[${gi}].blocks[${i}]`);
      const next = () => {
        if (block.outgoingEdgeId) return ctx.edge(block.outgoingEdgeId, path);
        const rest = i + 1 < blocks.length ? partOf(gi, i + 1) : null;
        return rest ? [goToInteraction(rest)] : [];
      };
      const converted = convertBlock(block, path, next, ctx);
      actions.push(...converted.actions);
      if (converted.ends) return actions;
      if (block.outgoingEdgeId) return [...actions, ...ctx.edge(block.outgoingEdgeId, path)];
    }
    return actions;
  };

  // what a group's blocks leave out is reported with the interaction it left a gap in
  const convertInto = (name: string, gi: number, from: number) => {
    report.within(name);
    interactions.push({ name, actions: mergeTextIntoChoice(convertFrom(gi, from)) });
    report.within(null);
  };
  groups.forEach((g, gi) => {
    const name = groupName.get(textAt(g.id) ?? `#${gi}`);
    if (name) convertInto(name, gi, 0);
  });
  while (pending.length > 0) {
    const { gi, from, name } = pending.shift()!;
    convertInto(name, gi, from);
  }

  const start = startInteraction(root, groups, startBlockGroup, edges, groupName);
  const first = interactions.find((i) => i.name === start) ?? interactions[0];
  if (first) first.start = true;
  else interactions.push({ name: 'Start', start: true, actions: [] });
  if (!start && first) report.change(at('.events'), 'the start', `the export has no start edge: the first group, "${first.name}", starts the bot`);
  const name = cleanName(root.name, 'Imported typebot');
  const bot = oneBehaviourBot({ name, interactions, variables: defaults });
  return { bot, report: report.finish(bot) };
}

/** The group the start event (version 6) or the start block (version 5) leads to. */
function startInteraction(root: Obj, groups: Obj[], startBlockGroup: number, edges: Map<string, Obj>, groupName: Map<string, string>): string | null {
  const event = listAt(root.events)
    .map(objAt)
    .find((e) => e.type === 'start');
  const startBlock =
    startBlockGroup >= 0
      ? listAt(groups[startBlockGroup]!.blocks)
          .map(objAt)
          .find((b) => b.type === 'start')
      : undefined;
  const edgeId = textAt(event?.outgoingEdgeId) ?? textAt(startBlock?.outgoingEdgeId);
  const to = edgeId ? edges.get(edgeId) : undefined;
  return to ? (groupName.get(textAt(to.groupId) ?? '') ?? null) : null;
}

/** A text said just before a choice becomes the text of its buttons, as Typebot shows them together. */
function mergeTextIntoChoice(actions: Action[]): Action[] {
  const out: Action[] = [];
  for (const action of actions) {
    const previous = out.at(-1);
    if (action.type === 'buttons' && action.text === '' && previous?.type === 'text' && typeof previous.text === 'string') {
      out.pop();
      out.push({ ...action, text: previous.text });
    } else out.push(action);
  }
  return out;
}
