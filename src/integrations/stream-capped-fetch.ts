// The fetch of answers read as they stream (the MCP client's transport, a streamed AI answer):
// through the private-network guard (a bot's MCP or AI URL is chosen by its designer), redirects
// never followed, and every answer read as it streams with its bytes counted: past the cap the
// stream errors and the connection is dropped, so a 100 MB answer or an endless event stream costs
// at most the cap in memory. Unlike the AI client's capped fetch the body is not read first: MCP
// answers may be event streams that stay open while a tool runs, and a streamed AI answer is shown
// as it arrives.
import { fetch as undiciFetch } from 'undici';
import { isPrivateLiteralUrl, outboundDispatcher } from './http-call.js';

export class AnswerTooLarge extends Error {}

export function streamCappedFetch(allowPrivateNetwork: boolean, maxBytes: number, onOverflow: () => void) {
  const dispatcher = outboundDispatcher(allowPrivateNetwork);
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    // IP literals never reach the guarded agent's DNS hook: checked here.
    if (!allowPrivateNetwork && isPrivateLiteralUrl(String(url))) throw new Error('refusing a private network address');
    const res = await undiciFetch(url, { ...(init as object), dispatcher, redirect: 'manual' });
    if (!res.body) return res as unknown as Response;
    let total = 0;
    const counted = (res.body as unknown as ReadableStream<Uint8Array>).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          total += chunk.byteLength;
          if (total <= maxBytes) return controller.enqueue(chunk);
          controller.error(new AnswerTooLarge(`the server's answer is over ${maxBytes} bytes`));
          onOverflow();
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  };
}
