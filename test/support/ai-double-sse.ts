// The AI double's streamed answers, as OpenAI's Chat Completions API sends them when a request
// says `stream: true` (API reference "The chat completion chunk object"): Server-Sent Events, each
// `data: {"id", "object": "chat.completion.chunk", "created", "model", "choices": [{"index": 0,
// "delta": {...}, "finish_reason"}]}`; the first delta carries `role: "assistant"`, then
// `content` pieces (or `tool_calls` pieces: `{index, id, type, function: {name, arguments}}`
// first, then `{index, function: {arguments: "<more>"}}`), a last chunk with an empty delta and
// the finish_reason, with `stream_options.include_usage` a chunk with `choices: []` and `usage`,
// and `data: [DONE]`.
import type http from 'node:http';

export interface StreamScript {
  /** the content, piece by piece (default: the script's content in one piece) */
  pieces?: string[];
  /** the connection drops after this many pieces (a stream broken midway; after the gate of the next one) */
  breakAfter?: number;
  /** awaited before each piece is sent: a test releases them one by one as it sees them arrive */
  gate?: (index: number) => Promise<void>;
}

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export async function streamChat(
  res: http.ServerResponse,
  request: { model: string; stream_options?: { include_usage?: boolean } },
  answer: { content: string | null; toolCalls: ToolCall[] | null; tokens: number },
  script: StreamScript,
): Promise<void> {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 0,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(chunk({ role: 'assistant', content: '' }, null));
  const pieces = answer.toolCalls ? [] : (script.pieces ?? (answer.content === null ? [] : [answer.content]));
  for (const [index, piece] of pieces.entries()) {
    await script.gate?.(index);
    if (script.breakAfter === index) return void res.destroy();
    if (res.destroyed) return;
    send(chunk({ content: piece }, null));
  }
  if (script.breakAfter !== undefined && script.breakAfter >= pieces.length) return void res.destroy();
  for (const [index, call] of (answer.toolCalls ?? []).entries()) {
    // the name first, the arguments in two pieces: a client must join them by `index`
    const half = Math.floor(call.arguments.length / 2);
    send(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments.slice(0, half) } }] }, null));
    send(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }, null));
  }
  send(chunk({}, answer.toolCalls ? 'tool_calls' : 'stop'));
  if (request.stream_options?.include_usage) {
    send({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 0,
      model: request.model,
      choices: [],
      usage: { prompt_tokens: answer.tokens - 2, completion_tokens: 2, total_tokens: answer.tokens },
    });
  }
  send('[DONE]');
  res.end();
}
