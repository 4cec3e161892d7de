/** Largest argument string `validateToolArguments` accepts, in UTF-8 bytes (1 MiB). */
export const MAX_ARGUMENT_BYTES = 1024 * 1024;

/** Deepest nesting of objects and arrays `validateToolArguments` accepts. */
export const MAX_ARGUMENT_DEPTH = 512;

/**
 * Longest text (UTF-16 units) given to the syntax-repair rung. `jsonrepair` is quadratic on some malformed input
 * (missing commas, many fenced blocks: about 0.5 s at 64 KiB), so larger malformed input gets only the linear
 * rungs (extraction, closing) and is otherwise refused with a message.
 */
export const MAX_SYNTAX_REPAIR_CHARS = 64 * 1024;

/**
 * The UTF-8 size of `text` when it is over `limit` bytes, otherwise `undefined`. Cheap for short strings:
 * a string of n UTF-16 units takes between n and 3n UTF-8 bytes, so the exact count is only needed in between.
 */
export function utf8SizeOver(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  if (text.length > limit) return Buffer.byteLength(text, 'utf8');
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? bytes : undefined;
}

/**
 * The deepest bracket nesting (`{`, `[`) in JSON-like text, skipping double-quoted strings, or `limit + 1`
 * as soon as the nesting passes `limit`. Linear, never recursive, and tolerant of invalid text (it only counts),
 * so it can guard `JSON.parse`, the repair rungs and their output alike.
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if ((c === 0x7d /* } */ || c === 0x5d) /* ] */ && depth > 0) {
      depth--;
    }
  }
  return deepest;
}
