// Sizes in UTF-8 bytes, which is what the database stores and what the limits of docs/limits.md
// count: a string's `length` counts UTF-16 units, up to three times fewer than its bytes.

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** `text` cut to at most `max` UTF-8 bytes, never inside a character. */
export function cutToBytes(text: string, max: number): string {
  if (text.length * 3 <= max || utf8Bytes(text) <= max) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += utf8Bytes(char);
    if (bytes > max) break;
    end += char.length;
  }
  return text.slice(0, end);
}
