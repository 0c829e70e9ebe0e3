// What a language model answered as JSON: read by the engine's `ai` steps and understanding, the
// knowledge answers and the conversation tests' stubs alike, so all of them tolerate the same fences.

/** The JSON object a model answered, tolerating a Markdown code fence around it; null otherwise. */
export function jsonObjectOf(text: string): Record<string, unknown> | null {
  const fenced = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(text);
  try {
    const value: unknown = JSON.parse((fenced ? fenced[1] : text).trim());
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
