// `callApi`: an HTTP call the caller makes for the engine (no I/O here). Synchronous calls yield an
// `http` request and wait for the answer, bounded by the time left before the 10 s turn guard;
// `async: true` calls become an `asyncHttp` effect made after the turn, with no answer used.
// `api_status` gets the status or TIMEOUT / ERROR; `variable` the body or the value at `responsePath`.

import { defineAction } from '../../action-definition.js';
import { Type } from 'typebox';
import type { HttpAnswer, RequestAnswer } from '../../types.js';
import { numberField } from '../fields.js';
import { actionSchema, NON_EMPTY_TEXT, OPERATIONS, TEXT } from '../schema-parts.js';
import { pickFromJson } from './response-path.js';
import { renderTemplate } from '../../../shared/template.js';

const REQUEST_TEMPLATE = { secretSlots: true } as const;

export const DEFAULT_TIMEOUT_MS = 5000;
export const MAX_TIMEOUT_MS = 30_000;

export const callApiAction = defineAction({
  type: 'callApi',
  needsId: false,
  schema: actionSchema('callApi', {
    method: NON_EMPTY_TEXT,
    url: NON_EMPTY_TEXT,
    headers: Type.Optional(Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: TEXT })),
    body: Type.Optional(TEXT),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS })),
    responsePath: Type.Optional(TEXT),
    variable: Type.Optional(NON_EMPTY_TEXT),
    async: Type.Optional(Type.Boolean()),
    onError: Type.Optional(OPERATIONS),
  }),
  *run(action, rc) {
    // `{{secret.NAME}}` becomes a slot the caller fills after checking the host (shared/template.ts)
    const render = (template: unknown) => (typeof template === 'string' ? renderTemplate(template, rc.state.variables, REQUEST_TEMPLATE) : '');
    const url = render(action.url);
    if (url === '') return;
    const method = (rc.render(action.method) || 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    if (typeof action.headers === 'object' && action.headers !== null && !Array.isArray(action.headers)) {
      for (const [name, value] of Object.entries(action.headers)) {
        if (typeof value === 'string') headers[name] = render(value);
      }
    }
    const body = typeof action.body === 'string' ? render(action.body) : null;
    const configured = Math.min(Math.max(numberField(action.timeoutMs) ?? DEFAULT_TIMEOUT_MS, 1), MAX_TIMEOUT_MS);
    rc.countApiCall();

    if (action.async === true) {
      rc.effect({ kind: 'asyncHttp', method, url, headers, body, timeoutMs: configured });
      return;
    }
    const timeoutMs = Math.max(1, Math.min(configured, Math.floor(rc.timeLeftMs())));
    const answer = toHttpAnswer(yield { kind: 'http', method, url, headers, body, timeoutMs });

    rc.setVariable('api_status', String(answer.status));
    const variable = typeof action.variable === 'string' && action.variable !== '' ? action.variable : null;
    // A server that answered (whatever its status) gave a body worth keeping; TIMEOUT/ERROR did not.
    if (variable !== null && typeof answer.status === 'number') {
      const path = rc.render(action.responsePath);
      rc.setVariable(variable, path === '' ? answer.body : pickFromJson(answer.body, path));
    }
    const succeeded = typeof answer.status === 'number' && answer.status >= 200 && answer.status < 300;
    if (!succeeded) return yield* rc.runActions(action.onError);
  },
});

/** The caller's answer, read defensively: anything unexpected counts as ERROR. */
export function toHttpAnswer(answer: RequestAnswer | undefined): HttpAnswer {
  if (typeof answer !== 'object' || answer === null || !('status' in answer) || !('body' in answer)) return { status: 'ERROR', body: '' };
  const { status, body } = answer;
  const validStatus = (typeof status === 'number' && Number.isInteger(status)) || status === 'TIMEOUT' || status === 'ERROR';
  return { status: validStatus ? status : 'ERROR', body: typeof body === 'string' ? body : '' };
}
