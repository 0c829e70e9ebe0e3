// UTF-8 bytes to text without holding the event loop (issue 35): a 10 MiB page or upload decoded
// in one call held every chat for tens of milliseconds, and a few at once for longer. Decoded a
// slice at a time by one streaming TextDecoder (a character cut by a slice's border is completed
// by the next slice), with a turn of the loop between slices so other requests are answered.

/** Bytes decoded between two turns of the event loop. */
export const UTF8_SLICE_BYTES = 256 * 1024;

export class NotUtf8Error extends Error {}

/**
 * `data` as text, refused with NotUtf8Error on a byte that is not UTF-8 (a truncated character at
 * the end too), and whether the text is blank (only white space, as `trim()` counts it): known
 * slice by slice, so a blank 10 MiB file is never scanned again whole.
 */
export async function decodeUtf8InSlices(data: Uint8Array, sliceBytes: number = UTF8_SLICE_BYTES): Promise<{ text: string; blank: boolean }> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let blank = true;
  try {
    for (let at = 0; at < data.byteLength; at += sliceBytes) {
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const part = decoder.decode(data.subarray(at, at + sliceBytes), { stream: true });
      if (blank && /\S/.test(part)) blank = false;
      parts.push(part);
    }
    const rest = decoder.decode();
    if (blank && /\S/.test(rest)) blank = false;
    parts.push(rest);
  } catch {
    throw new NotUtf8Error('not UTF-8');
  }
  return { text: parts.join(''), blank };
}
