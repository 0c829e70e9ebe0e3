// A Chat Completions answer read as it streams (agents.md "Streaming"): the request asks for
// `stream: true` (with the usage in the last chunk), each chunk's `delta.content` is handed on as
// it arrives, and the chunks are put back together into the message the unstreamed call answers
// (its content, its `tool_calls` assembled by `index`), so both ways end in the same code. A
// stream that breaks midway throws like a failed call: nothing half-said is answered.
import type OpenAI from 'openai';

/** The message and usage of a finished stream, shaped like a completion's. */
export interface StreamedAnswer {
  message: { content: string | null; tool_calls: Array<{ id?: string; function: { name: string; arguments: string } }> };
  totalTokens: number;
}

type Body = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

export async function streamedCompletion(client: OpenAI, body: Body, signal: AbortSignal, onDelta: (text: string) => void, maxToolCalls: number): Promise<StreamedAnswer> {
  const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
  let content: string | null = null;
  const calls: StreamedAnswer['message']['tool_calls'] = [];
  let totalTokens = 0;
  for await (const chunk of stream) {
    const total = Number(chunk?.usage?.total_tokens ?? 0);
    if (Number.isFinite(total) && total > 0) totalTokens = total;
    const delta = chunk?.choices?.[0]?.delta;
    if (!delta) continue;
    if (typeof delta.content === 'string' && delta.content !== '') {
      content = (content ?? '') + delta.content;
      onDelta(delta.content);
    }
    for (const piece of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      const index = Number.isInteger(piece?.index) ? piece.index : calls.length;
      if (index < 0 || index >= maxToolCalls) continue;
      calls[index] ??= { function: { name: '', arguments: '' } };
      const call = calls[index];
      if (typeof piece.id === 'string') call.id = piece.id;
      if (typeof piece.function?.name === 'string') call.function.name += piece.function.name;
      if (typeof piece.function?.arguments === 'string') call.function.arguments += piece.function.arguments;
    }
  }
  return { message: { content, tool_calls: calls.filter((call) => call !== undefined) }, totalTokens };
}
