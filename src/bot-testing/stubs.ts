// What the outside world answers in a test run (testing.md "stubs"): the engine's requests are
// answered from the test's stubs, the intent model and a made-up share link; nothing is ever sent.
// A call no stub matches stops the test with MissingStub, which names the call.
import type { RequestHandlers } from '../conversations/drive-turn.js';
import { classifyInstructions } from '../engine/actions/ai/answers.js';
import { jsonObjectOf } from '../shared/model-json.js';
import { SECRET_SLOT } from '../shared/template.js';
import type { AiAnswer, AiRequest, ClassifyAnswer, HttpAnswer, KnowledgeReply } from '../engine/types.js';
import { scriptedModel } from './model-script.js';
import { looseRegex } from './regex.js';
import type { Stubs } from './test-file.js';

export class MissingStub extends Error {
  constructor(readonly call: string) {
    super(`no stub matches ${call}`);
    this.name = 'MissingStub';
  }
}

const SHARE_BASE = 'https://colloquy.test/share/';
/** How a classify step's instructions begin whatever its labels (made by the same function). */
const CLASSIFY_FORMAT = classifyInstructions('', ['x']).split(' where ')[0]!;

/** A stub answers a classify step with the label; the model would answer it as JSON. */
const asModelAnswer = (request: AiRequest, answer: string): string => (request.instructions.includes(CLASSIFY_FORMAT) && jsonObjectOf(answer) === null ? JSON.stringify({ label: answer }) : answer);

export function stubHandlers(stubs: Stubs, classify: (text: string) => Promise<ClassifyAnswer>): RequestHandlers {
  let shares = 0;
  const regexes = new Map<string, RegExp>();
  const matches = (pattern: string, text: string) => {
    let regex = regexes.get(pattern);
    if (!regex) regexes.set(pattern, (regex = looseRegex(pattern)));
    return regex.test(text);
  };
  return {
    async http(request): Promise<HttpAnswer> {
      // a secret's slot is matched (and reported) as the author wrote it: no value exists in a test
      const url = request.url.replace(SECRET_SLOT, '{{secret.$1}}');
      const stub = stubs.callApi.find((s) => (s.method === undefined || s.method === request.method.toUpperCase()) && (s.url !== undefined ? s.url === url : matches(s.match!, url)));
      if (!stub) throw new MissingStub(`callApi ${request.method.toUpperCase()} ${url}`);
      const body = stub.json !== undefined ? JSON.stringify(stub.json) : (stub.body ?? '');
      return { status: stub.status ?? 200, body };
    },
    async ai(request): Promise<AiAnswer> {
      const stub = stubs.ai.find((s) => matches(s.match, request.input));
      if (!stub) throw new MissingStub(`ai with input ${JSON.stringify(request.input)}`);
      const status = stub.status ?? 'OK';
      return { status, text: status === 'OK' ? asModelAnswer(request, stub.answer ?? '') : '', tokens: 0 };
    },
    async knowledge(request): Promise<KnowledgeReply> {
      const stub = stubs.knowledge.find((s) => matches(s.match, request.question));
      if (!stub) throw new MissingStub(`knowledge with question ${JSON.stringify(request.question)}`);
      const status = stub.status ?? (stub.answer === undefined ? 'NO_ANSWER' : 'ANSWERED');
      const answered = status === 'ANSWERED';
      return { status, answer: answered ? (stub.answer ?? '') : null, sources: answered ? (stub.sources ?? []) : [], calledProvider: false, tokens: 0 };
    },
    agentModel: scriptedModel(stubs.model),
    async mcpTools() {
      return { tools: [], unavailable: [] };
    },
    async mcpCall(request) {
      throw new MissingStub(`MCP tool ${request.server}__${request.tool}`);
    },
    // The model is trained from the bot file itself: local, deterministic, nothing to stub.
    classify: (request) => classify(request.text),
    async shareUrl() {
      shares += 1;
      return `${SHARE_BASE}${shares}`;
    },
  };
}
