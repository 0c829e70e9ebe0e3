// Trailing slashes cut with a loop, not /\/+$/: on V8 that regex retries its run of slashes from
// every slash, quadratic in a text someone else wrote (issue 11: an Origin header, a BaseUrl).

/** `text` without the slashes it ends with. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}
