// One outbound HTTP request of a turn (a `callApi`, sync or async, and an agent's http tool): the
// bot's secrets filled into its slots for the hosts they allow (secrets/substitution.ts), sent
// through the private-network guard, and the answer given back with any secret it echoes masked
// and with the notes a trace shows. Never throws.
import type { HttpAnswer } from '../engine/types.js';
import { performHttpCall } from '../integrations/http-call.js';
import type { FilledRequest, OutboundRequest } from '../secrets/substitution.js';
import { SECRET_SLOT } from '../shared/template.js';

/** What fills a request's secret slots (secrets/substitution.ts SecretFiller). */
export interface RequestSecrets {
  fill<R extends OutboundRequest>(botId: string, request: R): Promise<FilledRequest<R>>;
}

export interface OutboundHttpDeps {
  allowPrivateNetwork: boolean;
  /** absent: slots are sent empty (the engine never has a value to send) */
  secrets?: RequestSecrets;
}

export async function sendHttp(botId: string, request: OutboundRequest, deps: OutboundHttpDeps): Promise<HttpAnswer> {
  let filled: FilledRequest<OutboundRequest> | null = null;
  try {
    filled = deps.secrets ? await deps.secrets.fill(botId, request) : null;
  } catch {
    // the secrets could not be read (database, server key): the request is not made with holes in it
    return { status: 'ERROR', body: '', notes: ["the bot's secrets could not be read; the request was not sent"] };
  }
  const answer = await performHttpCall(filled?.request ?? withoutSlots(request), { allowPrivateNetwork: deps.allowPrivateNetwork });
  if (!filled) return answer;
  const shown = filled.mask(answer);
  return filled.notes.length > 0 ? { ...shown, notes: filled.notes } : shown;
}

const emptied = (text: string) => text.replace(SECRET_SLOT, '');

/** With no secrets to fill, every slot is sent as nothing (never as its marks). */
function withoutSlots(request: OutboundRequest): OutboundRequest {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, emptied(v)]));
  return { ...request, url: emptied(request.url), headers, body: request.body === null ? null : emptied(request.body) };
}
