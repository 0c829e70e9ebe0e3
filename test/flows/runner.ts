// Transcript runner: reads a readable script (test/flows/*.flow.yaml) and plays it against a real
// server over HTTP, one conversation at a time, checking every reply.
//
// A script:
//
//   bot: support                 # "support" = assets/support.bot.json; else a path under test/flows/
//   conversations:
//     - name: what this conversation shows
//       send: { Variables: { api_url: "${API_URL}" } }   # extra body fields of the FIRST request
//       steps:
//         - reset                                # or `- reset:` with checks below it
//         - say: "hello"                         # Text
//           expect:                              # the reply's Parts, exactly, in order
//             - [0, "Hi!"]                       # [Type, Text]
//             - [13, "Pick one", [[1, "A"], [17, "B"]]]   # [Type, Text, children]
//             - { Type: 5, Parts: [ { Type: 14, Title: "Kettle", Parts: [[1, "Kettle"]] } ] }
//           position: Main/Welcome               # GET /custom/position
//           variables: { name: value, gone: null }   # GET /custom/values (null = not set)
//           tags: [vip]                          # exactly these tags
//           privacy: { personal_data_processing: true }
//           enableUserChat: true
//           controlType: 1                       # the reply's and /custom/values Context.ControlType
//           typeDelays: [400, 600]               # TypeDelay of each top-level part
//         - click: "Track an order"              # the Command of the button with this text in the previous reply
//         - ready: { historyLimit: 3 }           # READY (historyLimit optional)
//         - pending                              # PENDING
//         - command: "some-payload"              # a raw Command
//         - force: { behaviour: Orders, interaction: Ask Number, key: ... }
//           send: { Variables: { x: "1" } }      # extra body fields of this request
//
// `${NAME}` in any string is replaced by the runner's environment (e.g. the URL of a local API).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import type { TestServer } from '../support/server.js';

export const FLOWS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** `[Type, Text]`, `[Type, Text, children]`, or an object of wire fields (`Parts` is checked the same way). */
type ExpectedPart = ExpectedTuple | Record<string, unknown>;
interface ExpectedTuple extends Array<unknown> {
  0: number;
  1: string | null;
  2?: ExpectedPart[];
}

export interface FlowStep {
  say?: string;
  click?: string;
  reset?: null | true;
  ready?: null | true | { historyLimit?: number };
  pending?: null | true;
  command?: string;
  force?: { behaviour?: string; interaction?: string; key?: string };
  send?: Record<string, unknown>;
  expect?: ExpectedPart[];
  status?: number;
  error?: string;
  position?: string;
  variables?: Record<string, string | null>;
  tags?: string[];
  privacy?: Record<string, boolean>;
  enableUserChat?: boolean;
  controlType?: number;
  typeDelays?: number[];
}

export interface FlowConversation {
  name: string;
  send?: Record<string, unknown>;
  steps: (FlowStep | string)[];
}

export interface FlowScript {
  bot: string;
  conversations: FlowConversation[];
}

const ACTIONS = ['say', 'click', 'reset', 'ready', 'pending', 'command', 'force'] as const;
const CHECKS = ['send', 'expect', 'status', 'error', 'position', 'variables', 'tags', 'privacy', 'enableUserChat', 'controlType', 'typeDelays'];

export function loadFlow(file: string): FlowScript {
  const script = YAML.parse(fs.readFileSync(file, 'utf8')) as FlowScript;
  assert.equal(typeof script.bot, 'string', `${file}: "bot" is missing`);
  assert.ok(Array.isArray(script.conversations) && script.conversations.length > 0, `${file}: no conversations`);
  for (const conversation of script.conversations) {
    assert.equal(typeof conversation.name, 'string', `${file}: a conversation has no name`);
    conversation.steps.forEach((raw, i) => {
      const step = normalize(raw);
      const actions = ACTIONS.filter((a) => a in step);
      assert.equal(actions.length, 1, `${file} "${conversation.name}" step ${i + 1}: exactly one of ${ACTIONS.join('/')} (got ${actions.join(', ') || 'none'})`);
      for (const key of Object.keys(step)) {
        assert.ok((ACTIONS as readonly string[]).includes(key) || CHECKS.includes(key), `${file} "${conversation.name}" step ${i + 1}: unknown key "${key}"`);
      }
    });
  }
  return script;
}

/** The bot file a script talks to. */
export function botOf(script: FlowScript): unknown {
  const file = script.bot === 'support' ? path.join(FLOWS_DIR, '../../assets/support.bot.json') : path.join(FLOWS_DIR, script.bot);
  return YAML.parse(fs.readFileSync(file, 'utf8'));
}

function normalize(raw: FlowStep | string): FlowStep {
  return typeof raw === 'string' ? ({ [raw]: null } as FlowStep) : raw;
}

function substitute<T>(value: T, env: Record<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)\}/g, (_whole, name: string) => {
      assert.ok(name in env, `the script uses \${${name}} but the runner has no such value`);
      return env[name];
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, env)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)])) as T;
  }
  return value;
}

/** Finds a button (Type 1) by its text anywhere in the parts, children included. */
function commandOf(parts: any[], label: string): string {
  const stack = [...parts];
  while (stack.length > 0) {
    const part = stack.shift();
    if (part.Type === 1 && part.Text === label && typeof part.Command === 'string') return part.Command;
    stack.push(...(part.Parts ?? []));
  }
  const seen: string[] = [];
  const collect = (list: any[]) => list.forEach((p) => (p.Type === 1 ? seen.push(p.Text) : collect(p.Parts ?? [])));
  collect(parts);
  assert.fail(`no button "${label}" in the previous reply (buttons: ${JSON.stringify(seen)})`);
}

function checkParts(actual: any[], expected: ExpectedPart[], where: string): void {
  const shown = JSON.stringify(actual.map((p) => [p.Type, p.Text]));
  assert.equal(actual.length, expected.length, `${where}: expected ${expected.length} parts, got ${actual.length}: ${shown}`);
  expected.forEach((want, i) => {
    const got = actual[i];
    const at = `${where}[${i}]`;
    if (Array.isArray(want)) {
      assert.deepEqual([got.Type, got.Text], [want[0], want[1]], `${at}: [Type, Text] in ${shown}`);
      if (want[2] !== undefined) checkParts(got.Parts, want[2], `${at}.Parts`);
      return;
    }
    for (const [field, value] of Object.entries(want)) {
      if (field === 'Parts') checkParts(got.Parts, value as ExpectedPart[], `${at}.Parts`);
      else assert.deepEqual(got[field], value, `${at}.${field}`);
    }
  });
}

function bodyOf(step: FlowStep): Record<string, unknown> {
  if ('say' in step) return { Text: step.say };
  if ('reset' in step) return { Command: 'RESET' };
  if ('pending' in step) return { Command: 'PENDING' };
  if ('command' in step) return { Command: step.command };
  if ('ready' in step) {
    const limit = step.ready && typeof step.ready === 'object' ? step.ready.historyLimit : undefined;
    return limit === undefined ? { Command: 'READY' } : { Command: 'READY', HistoryLimit: limit };
  }
  if ('force' in step) {
    const force = step.force ?? {};
    return {
      ...(force.behaviour !== undefined ? { ForcedBehaviour: force.behaviour } : {}),
      ...(force.interaction !== undefined ? { ForcedInteraction: force.interaction } : {}),
      ...(force.key !== undefined ? { ForcedBehaviourKey: force.key } : {}),
    };
  }
  return {};
}

function describeStep(step: FlowStep): string {
  const action = ACTIONS.find((a) => a in step)!;
  const value = step[action];
  return value === null || value === undefined ? action : `${action}: ${JSON.stringify(value)}`;
}

/** Plays one conversation of a script against `server` with the bot whose token is given. */
export async function runConversation(server: TestServer, token: string, conversation: FlowConversation, userId: string, env: Record<string, string> = {}): Promise<void> {
  const get = async (route: string) => {
    const res = await server.client.get(`${route}?userid=${encodeURIComponent(userId)}`, { token });
    assert.equal(res.status, 200, `GET ${route}: ${res.status} ${res.text}`);
    return res.body;
  };
  let previous: any[] = [];
  const steps = substitute(conversation.steps.map(normalize), env);
  const firstSend = substitute(conversation.send ?? {}, env);
  for (const [index, step] of steps.entries()) {
    const where = `"${conversation.name}" step ${index + 1} (${describeStep(step)})`;
    const body: Record<string, unknown> = { UserId: userId, ...(index === 0 ? firstSend : {}), ...(step.send ?? {}), ...bodyOf(step) };
    if ('click' in step) body.Command = commandOf(previous, step.click!);
    const res = await server.client.post('/custom/chat', body, { token });
    assert.equal(res.status, step.status ?? 200, `${where}: status ${res.status} ${res.text}`);
    if (step.error !== undefined) assert.equal(res.body.Code, step.error, `${where}: error code`);
    if (res.status !== 200) continue;
    const reply = res.body;
    assert.equal(reply.UserId, userId, `${where}: UserId`);
    if (step.expect !== undefined) checkParts(reply.Parts, step.expect, `${where} Parts`);
    if (step.typeDelays !== undefined)
      assert.deepEqual(
        reply.Parts.map((p: any) => p.TypeDelay),
        step.typeDelays,
        `${where}: TypeDelay`,
      );
    if (step.enableUserChat !== undefined) assert.equal(reply.EnableUserChat, step.enableUserChat, `${where}: EnableUserChat`);
    if (step.position !== undefined) {
      const position = await get('/custom/position');
      assert.equal(`${position.BehaviourName}/${position.InteractionName}`, step.position, `${where}: position`);
    }
    if (step.variables !== undefined || step.tags !== undefined || step.privacy !== undefined || step.controlType !== undefined) {
      const values = await get('/custom/values');
      if (step.controlType !== undefined) {
        assert.equal(reply.ControlType, step.controlType, `${where}: reply ControlType`);
        assert.equal(values.Context.ControlType, step.controlType, `${where}: /custom/values Context.ControlType`);
      }
      const variables = Object.fromEntries(values.Variables.map((v: any) => [v.Name, v.Value]));
      for (const [name, value] of Object.entries(step.variables ?? {})) {
        assert.equal(variables[name] ?? null, value === null ? null : String(value), `${where}: variable ${name}`);
      }
      if (step.tags !== undefined) assert.deepEqual([...values.Tags].sort(), [...step.tags].sort(), `${where}: tags`);
      const flags = Object.fromEntries(values.PrivacyFlags.map((f: any) => [f.Name, f.Enabled]));
      for (const [name, enabled] of Object.entries(step.privacy ?? {})) assert.equal(flags[name] ?? false, enabled, `${where}: privacy ${name}`);
    }
    previous = reply.Parts;
  }
}
