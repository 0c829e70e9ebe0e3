// One Typebot block → Colloquy actions (importers.md "Typebot"): bubbles say, inputs wait, logic
// and integrations map to their Colloquy twins; anything else is skipped and reported. The flow
// (edges, what follows an input) is the group converter's (convert.ts): it hands in `follow`, the
// actions that run after the block once it is done.
import type { Action } from '../../engine/bot-file.js';
import { regexProblem } from '../../engine/matching.js';
import type { ReportBuilder } from '../report.js';
import { isObj, listAt, objAt, textAt, type Obj } from '../shared.js';
import { bubbleText } from './rich-text.js';

export interface BlockContext {
  report: ReportBuilder;
  /** a Typebot variable id → its name in the bot (null when the export does not declare it) */
  variable(id: unknown): string | null;
  /** the actions that move the conversation along an edge (none for an edge that leads nowhere) */
  edge(edgeId: unknown, path: string): Action[];
  /** the actions that move to a group, or to a block inside one */
  jump(groupId: unknown, blockId: unknown, path: string): Action[];
  /** a webhook of a version-5 export, kept beside the groups */
  webhook(id: unknown): Obj | null;
}

/** What a block becomes: actions said in order, and whether it ends the group's list here (it waits or moves on). */
export interface ConvertedBlock {
  actions: Action[];
  ends: boolean;
}

const INPUT_EXPECT: Record<string, string> = {
  'text input': 'any',
  'email input': 'email',
  'number input': 'number',
  'phone number input': 'phone',
  'url input': 'url',
  'date input': 'date',
};

const MEDIA: Record<string, string> = { image: 'image', video: 'video', audio: 'audio' };

/** Typebot's comparison operators → variableSwitch criteria; `negate` swaps then and else. */
const CRITERIA: Record<string, { criteria: string; negate?: boolean }> = {
  'Equal to': { criteria: 'equals' },
  'Not equal': { criteria: 'notEquals' },
  Contains: { criteria: 'contains' },
  'Does not contain': { criteria: 'contains', negate: true },
  'Greater than': { criteria: 'greaterThan' },
  'Less than': { criteria: 'lessThan' },
  'Is set': { criteria: 'notEmpty' },
  'Is empty': { criteria: 'empty' },
  'Starts with': { criteria: 'startsWith' },
  'Ends with': { criteria: 'endsWith' },
  'Matches regex': { criteria: 'matches' },
  'Does not match regex': { criteria: 'matches', negate: true },
};

export function convertBlock(block: Obj, path: string, follow: () => Action[], ctx: BlockContext): ConvertedBlock {
  const type = textAt(block.type) ?? '';
  const options = objAt(block.options);
  const content = objAt(block.content);
  const says = (...actions: Action[]): ConvertedBlock => ({ actions, ends: false });
  if (type === 'text') {
    const text = bubbleText(block.content);
    return text === '' ? skipped(ctx, path, 'an empty text bubble', 'it has no text') : says({ type: 'text', text });
  }
  if (type in MEDIA) {
    const url = textAt(content.url);
    return url ? says({ type: MEDIA[type]!, url }) : skipped(ctx, path, `a ${type} bubble`, 'it has no URL');
  }
  if (type === 'embed') {
    const url = textAt(content.url);
    return url ? says({ type: 'link', text: url, url }) : skipped(ctx, path, 'an embed bubble', 'it has no URL');
  }
  if (type in INPUT_EXPECT) return { actions: [input(block, INPUT_EXPECT[type]!, path, follow, ctx)], ends: true };
  if (type === 'choice input') return { actions: [choices(block, path, follow, ctx)], ends: true };
  if (type === 'Set variable') return says(...setVariable(options, path, ctx));
  if (type === 'Condition') return condition(block, path, ctx);
  if (type === 'Jump') return { actions: ctx.jump(options.groupId, options.blockId, path), ends: true };
  if (type === 'Redirect') {
    const url = textAt(options.url);
    return url ? says({ type: 'link', text: url, url }) : skipped(ctx, path, 'a redirect', 'it has no URL');
  }
  if (type === 'Wait') {
    const seconds = Number(textAt(options.secondsToWaitFor) ?? 0);
    return Number.isFinite(seconds) && seconds > 0 ? says({ type: 'delay', ms: Math.min(Math.round(seconds * 1000), 60_000) }) : skipped(ctx, path, 'a wait', 'it waits for no time');
  }
  if (type === 'Webhook' || type === 'HTTP request' || type === 'webhook') return says(...httpRequest(block, path, ctx));
  if (type === 'OpenAI') return says(...openAi(options, path, ctx));
  return skipped(ctx, path, `a "${type.slice(0, 60)}" block`, 'Colloquy has no such step: finish it by hand (docs/importers.md)');
}

function skipped(ctx: BlockContext, path: string, what: string, why: string): ConvertedBlock {
  ctx.report.skip(path, what, why);
  return { actions: [], ends: false };
}

function input(block: Obj, expect: string, path: string, follow: () => Action[], ctx: BlockContext): Action {
  const options = objAt(block.options);
  const action: Action = { type: 'input', expect, variable: ctx.variable(options.variableId) ?? 'answer', onSuccess: follow() };
  const retry = textAt(options.retryMessageContent);
  if (retry) action.wrongAnswerTexts = [retry];
  if (expect === 'number' && (options.min !== undefined || options.max !== undefined))
    ctx.report.change(`${path}.options`, 'the bounds of a number input', 'any number is accepted: check the range with a condition');
  return action;
}

function choices(block: Obj, path: string, follow: () => Action[], ctx: BlockContext): Action {
  const options = objAt(block.options);
  const variable = ctx.variable(options.variableId);
  if (options.isMultipleChoice === true) ctx.report.change(`${path}.options.isMultipleChoice`, 'a multiple choice', 'each button picks one item');
  const blockEdge = textAt(block.outgoingEdgeId);
  const buttons = listAt(block.items).map((item, i): Action => {
    const it = objAt(item);
    const text = textAt(it.content) ?? `Choice ${i + 1}`;
    const itemPath = `${path}.items[${i}]`;
    const move = it.outgoingEdgeId ? ctx.edge(it.outgoingEdgeId, itemPath) : blockEdge ? ctx.edge(blockEdge, path) : follow();
    const store: Action[] = variable ? [{ type: 'setVariable', name: variable, value: text }] : [];
    return { type: 'button', text, onClick: [...store, ...move] };
  });
  return { type: 'buttons', text: '', buttons };
}

function setVariable(options: Obj, path: string, ctx: BlockContext): Action[] {
  const name = ctx.variable(options.variableId);
  if (!name) return skipped(ctx, path, 'a set variable', 'it names no variable').actions;
  const kind = textAt(options.type) ?? 'Custom';
  if (kind === 'Empty') return [{ type: 'setVariable', name, mode: 'clear' }];
  if (kind !== 'Custom') return skipped(ctx, path, `a set variable of type "${kind.slice(0, 40)}"`, 'Colloquy has no such value: set it with an API call or by hand').actions;
  const value = textAt(options.expressionToEvaluate) ?? '';
  if (options.isCode === true || /[();]|=>|\breturn\b/.test(value)) {
    ctx.report.change(`${path}.options.expressionToEvaluate`, 'a JavaScript expression', 'Colloquy sets the text as written, without running it: rewrite it with setVariable modes');
  }
  return [{ type: 'setVariable', name, mode: 'overwrite', value }];
}

/** Each item's comparisons, tried in order; the block's own edge (or the next block) is the else. */
function condition(block: Obj, path: string, ctx: BlockContext): ConvertedBlock {
  const elseActions = block.outgoingEdgeId ? ctx.edge(block.outgoingEdgeId, path) : [];
  let chain: Action[] = elseActions;
  const items = listAt(block.items);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = objAt(items[i]);
    const itemPath = `${path}.items[${i}]`;
    const then = item.outgoingEdgeId ? ctx.edge(item.outgoingEdgeId, itemPath) : [];
    const itemContent = objAt(item.content);
    const comparisons = listAt(itemContent.comparisons).map(objAt);
    const any = textAt(itemContent.logicalOperator) === 'OR';
    let test: Action[] | null = null;
    // AND: every comparison in turn must hold; OR: any one (each tried in turn, the then repeated)
    for (let c = comparisons.length - 1; c >= 0; c--) {
      const compared = comparison(comparisons[c]!, `${itemPath}.content.comparisons[${c}]`, ctx);
      if (compared === null) continue;
      const inner: Action[] = test ?? then;
      test = [any ? compared(then, test ?? chain) : compared(inner, chain)];
    }
    if (test !== null) chain = test;
  }
  return { actions: chain, ends: block.outgoingEdgeId !== undefined };
}

function comparison(c: Obj, path: string, ctx: BlockContext): ((then: Action[], otherwise: Action[]) => Action) | null {
  const variable = ctx.variable(c.variableId);
  const mapped = CRITERIA[textAt(c.comparisonOperator) ?? 'Equal to'];
  const value = textAt(c.value) ?? '';
  if (!variable || !mapped) {
    ctx.report.skip(path, 'a comparison', variable ? `the operator "${String(c.comparisonOperator).slice(0, 40)}" has no Colloquy criterion` : 'it names no variable');
    return null;
  }
  if (mapped.criteria === 'matches' && regexProblem(value) !== null) {
    ctx.report.skip(path, `a regex comparison ${JSON.stringify(value.slice(0, 60))}`, 'the pattern is not one Colloquy runs (linear-time patterns only)');
    return null;
  }
  return (then, otherwise) => ({ type: 'variableSwitch', variable, criteria: mapped.criteria, value, then: mapped.negate ? otherwise : then, else: mapped.negate ? then : otherwise });
}

function httpRequest(block: Obj, path: string, ctx: BlockContext): Action[] {
  const options = objAt(block.options);
  const hook = isObj(options.webhook) ? options.webhook : ctx.webhook(block.webhookId);
  const url = textAt(hook?.url);
  if (!hook || !url) return skipped(ctx, path, 'an HTTP request', 'it has no URL').actions;
  const query = listAt(hook.queryParams)
    .map(objAt)
    .filter((q) => textAt(q.key));
  const fullUrl = query.length === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}${query.map((q) => `${textAt(q.key)}=${textAt(q.value) ?? ''}`).join('&')}`;
  const headers: Record<string, string> = {};
  for (const h of listAt(hook.headers).map(objAt)) if (textAt(h.key)) headers[textAt(h.key)!] = textAt(h.value) ?? '';
  const action: Action = { type: 'callApi', method: (textAt(hook.method) ?? 'POST').toUpperCase(), url: fullUrl };
  if (Object.keys(headers).length > 0) action.headers = headers;
  const body = textAt(hook.body);
  if (body) action.body = body;
  const mappings = listAt(options.responseVariableMapping).map(objAt);
  const first = mappings[0];
  const variable = first ? ctx.variable(first.variableId) : null;
  if (first && variable) {
    action.variable = variable;
    const bodyPath = (textAt(first.bodyPath) ?? 'data').replace(/^data\.?/, '');
    if (bodyPath !== '') action.responsePath = bodyPath;
  }
  mappings
    .slice(1)
    .forEach((_, i) => ctx.report.skip(`${path}.options.responseVariableMapping[${i + 1}]`, 'a second response mapping', 'a callApi stores one value: add another callApi or read the stored answer'));
  return [action];
}

function openAi(options: Obj, path: string, ctx: BlockContext): Action[] {
  const task = textAt(options.task) ?? 'Create chat completion';
  if (task !== 'Create chat completion') return skipped(ctx, path, `an OpenAI "${task.slice(0, 40)}" task`, 'only chat completions have a Colloquy twin (the ai step)').actions;
  const messages = listAt(options.messages).map(objAt);
  const instructions = messages
    .filter((m) => m.role === 'system')
    .map((m) => textAt(m.content) ?? '')
    .join('\n');
  const userMessages = messages.filter((m) => m.role === 'user');
  const action: Action = { type: 'ai', mode: 'reply' };
  if (instructions) action.instructions = instructions;
  const last = userMessages.at(-1);
  if (last && textAt(last.content)) action.input = textAt(last.content)!;
  const mapping = listAt(options.responseMapping).map(objAt)[0];
  const variable = mapping ? ctx.variable(mapping.variableId) : null;
  if (variable) action.variable = variable;
  else action.say = true;
  if (messages.some((m) => m.role === 'assistant') || userMessages.length > 1)
    ctx.report.change(`${path}.options.messages`, 'earlier messages of the prompt', 'the ai step sends its instructions, the last user message and the conversation history');
  ctx.report.change(`${path}.options`, 'the OpenAI credentials and model', "set the bot's AI provider with PUT /bots/{APIKey}/ai (credentials never travel in exports)");
  return [action];
}
