/** One page of a long text. */
export interface TextPage {
  text: string;
  /** Where this page starts (characters). */
  offset: number;
  /** Where it ends (exclusive). */
  end: number;
  /** The whole text's length. */
  total: number;
  /** Where the next page starts, or undefined on the last page. */
  nextOffset: number | undefined;
}

/**
 * Cuts `maxLength` characters from `offset`, preferring to end at a line break in the last fifth
 * of the window and never splitting a surrogate pair. An offset past the end gives an empty page.
 */
export function paginateText(text: string, offset: number, maxLength: number): TextPage {
  const total = text.length;
  const start = Math.min(Math.max(0, offset), total);
  let end = Math.min(total, start + maxLength);
  if (end < total) {
    const lineBreak = text.lastIndexOf('\n', end - 1);
    if (lineBreak >= start + Math.floor(maxLength * 0.8)) end = lineBreak + 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  return { text: text.slice(start, end), offset: start, end, total, nextOffset: end < total ? end : undefined };
}
