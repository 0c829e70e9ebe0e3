// Runs one test's steps against a conversation (testing.md): `bot` consumes the next text the bot
// said, `click` presses a button of the latest turn by its label, `user`/`click`/`start` first
// drop what no `bot` step consumed. The first step that does not hold ends the test with a
// failure that says where, what was expected and what the bot said (the whole turn).
import { PartType } from '../engine/parts.js';
import type { ReplyPart } from '../engine/types.js';
import type { ChatSession } from './session.js';
import { looseRegex } from './regex.js';
import { ModelScriptStop } from './model-script.js';
import { MissingStub } from './stubs.js';
import type { Matcher, Step, TestCase } from './test-file.js';

export interface StepFailure {
  line: number;
  step: string;
  expected: string;
  actual: string;
  /** the bot's latest turn, one line per part */
  turn: string[];
}

const TEXT_TYPES = new Set<number>([PartType.Text, PartType.Question, PartType.Buttons]);
const MEDIA_TYPES = new Set<number>([PartType.Image, PartType.Video, PartType.Audio, PartType.File]);
const TYPE_NAMES: Record<number, string> = {
  0: 'text',
  1: 'button',
  3: 'image',
  5: 'carousel',
  6: 'question',
  9: 'video',
  10: 'audio',
  11: 'file',
  13: 'buttons',
  14: 'card',
  17: 'link',
  25: 'delay',
};

export const describeStep = (step: Pick<Step, 'kind' | 'value'>): string => `${step.kind}: ${JSON.stringify(step.value)}`;

export function describeMatcher(matcher: Matcher): string {
  if (typeof matcher === 'string') return JSON.stringify(matcher);
  if ('contains' in matcher) return `a text containing ${JSON.stringify(matcher.contains)}`;
  if ('regex' in matcher) return `a text matching /${matcher.regex}/`;
  return 'any text';
}

function matches(matcher: Matcher, text: string): boolean {
  if (typeof matcher === 'string') return text === matcher;
  if ('contains' in matcher) return text.toLowerCase().includes(matcher.contains.toLowerCase());
  if ('regex' in matcher) return looseRegex(matcher.regex).test(text);
  return true;
}

/** The turn as the report shows it: each part's kind and text, children indented. */
export function turnLines(parts: ReplyPart[], depth = 0): string[] {
  return parts.flatMap((p) => {
    if (p.Type === PartType.Delay) return [];
    const label = p.Text ?? p.Title ?? p.Url ?? '';
    const line = `${'  '.repeat(depth)}${(TYPE_NAMES[p.Type] ?? `type ${p.Type}`).padEnd(9)} ${label}`.trimEnd();
    return [line, ...turnLines(p.Parts ?? [], depth + 1)];
  });
}

/** Titles of the buttons, links, cards and media of a turn, in order. */
function titlesOf(parts: ReplyPart[]): string[] {
  return parts.flatMap((p): string[] => {
    if (p.Type === PartType.Button || p.Type === PartType.Link) return [p.Text ?? ''];
    if (p.Type === PartType.Card) return [p.Title ?? p.Text ?? ''];
    if (MEDIA_TYPES.has(p.Type)) return [p.Title ?? p.Text ?? p.Url ?? ''];
    return titlesOf(p.Parts ?? []);
  });
}

function buttonsOf(parts: ReplyPart[]): ReplyPart[] {
  return parts.flatMap((p) => (p.Type === PartType.Button ? [p] : buttonsOf(p.Parts ?? [])));
}

export class StepRunner {
  private latest: ReplyPart[] = [];
  private unread: ReplyPart[] = [];
  constructor(private readonly chat: ChatSession) {}

  async run(test: TestCase): Promise<StepFailure | null> {
    const steps = test.steps[0]?.kind === 'start' ? test.steps : [{ kind: 'start', value: true, line: test.line } as Step, ...test.steps];
    for (const step of steps) {
      let failure: StepFailure | null;
      try {
        failure = await this.step(step);
      } catch (error) {
        // the turn that needed it did not happen: there is no turn of it to show
        if (error instanceof MissingStub) failure = { ...this.fail(step, `a stub for ${error.call}`, 'the test has none: add one under `stubs`, no call is ever made'), turn: [] };
        else if (error instanceof ModelScriptStop) failure = { ...this.fail(step, error.expected, error.actual), turn: [] };
        else throw error;
      }
      if (failure) return failure;
    }
    return null;
  }

  private fail(step: Step, expected: string, actual: string): StepFailure {
    return { line: step.line, step: describeStep(step), expected, actual, turn: turnLines(this.latest) };
  }

  private async said(parts: Promise<ReplyPart[]>): Promise<void> {
    this.latest = await parts;
    this.unread = this.latest.filter((p) => TEXT_TYPES.has(p.Type) && p.Text !== null && p.Text !== '');
  }

  private async step(step: Step): Promise<StepFailure | null> {
    const { chat } = this;
    switch (step.kind) {
      case 'start':
        await this.said(chat.start());
        return null;
      case 'user':
        await this.said(chat.say(String(step.value)));
        return null;
      case 'click': {
        const label = String(step.value);
        const buttons = buttonsOf(this.latest);
        const button = buttons.find((b) => b.Text === label) ?? buttons.find((b) => b.Text?.toLowerCase() === label.toLowerCase());
        if (!button?.Command) {
          const offered = buttons.map((b) => JSON.stringify(b.Text)).join(', ');
          return this.fail(step, `a button ${JSON.stringify(label)} in the bot's latest turn`, offered ? `its buttons are ${offered}` : 'it has no buttons');
        }
        await this.said(chat.press(button.Command));
        return null;
      }
      case 'bot': {
        const matcher = step.value as Matcher;
        const next = this.unread.shift();
        if (!next) return this.fail(step, describeMatcher(matcher), 'nothing more');
        return matches(matcher, next.Text!) ? null : this.fail(step, describeMatcher(matcher), JSON.stringify(next.Text));
      }
      case 'parts': {
        const expected = step.value as string[];
        const actual = titlesOf(this.latest);
        const same = expected.length === actual.length && expected.every((t, i) => t === actual[i]);
        return same ? null : this.fail(step, JSON.stringify(expected), JSON.stringify(actual));
      }
      case 'at': {
        const where = await chat.position();
        return where?.toLowerCase() === String(step.value).toLowerCase() ? null : this.fail(step, `at ${step.value}`, where === null ? 'nowhere yet' : `at ${where}`);
      }
      case 'variable': {
        const variables = await chat.variables();
        for (const [name, value] of Object.entries(step.value as Record<string, unknown>)) {
          if (variables[name] !== String(value)) {
            return this.fail(step, `${name} = ${JSON.stringify(String(value))}`, name in variables ? `${name} = ${JSON.stringify(variables[name])}` : `${name} is not set`);
          }
        }
        return null;
      }
      case 'operator': {
        const handedOver = await chat.handedOver();
        if (handedOver === step.value) return null;
        return this.fail(step, step.value ? 'handed over to a person' : 'not handed over', handedOver ? 'handed over to a person' : 'still with the bot');
      }
    }
  }
}
