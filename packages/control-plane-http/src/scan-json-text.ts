/** What a `JsonTextScanner` found wrong with a JSON text before it is parsed. */
export interface JsonTextProblem {
  /** `input_too_deep`: objects and arrays nested past `maxDepth`; `body_too_complex`: more than `maxValues` values. */
  code: 'input_too_deep' | 'body_too_complex';
  /** Where: the keys and indexes from the top to the container that went too deep, or to the value past the count. */
  path: Array<string | number>;
}

/** The bounds a `JsonTextScanner` checks. */
export interface JsonTextLimits {
  /** The deepest nesting of objects and arrays (the top-level value is level 1). */
  maxDepth: number;
  /** The most values (objects, arrays, strings, numbers, literals) the text may hold. */
  maxValues: number;
}

/** Scans a JSON text's UTF-8 bytes as they arrive; see `createJsonTextScanner`. */
export interface JsonTextScanner {
  /** Scans the next bytes; the first problem found (and every later call returns it again), else `undefined`. */
  push(bytes: Uint8Array): JsonTextProblem | undefined;
}

interface Frame {
  array: boolean;
  /** The index of the current item (arrays). */
  index: number;
  /** The current key's raw bytes, at most `KEY_BYTES` of them (objects; `undefined` before the first key). */
  key: number[] | undefined;
  keyCut: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** Of a key, the bytes kept to name a path. */
const KEY_BYTES = 120;
/** The first bytes of numbers and literals: `-`, digits, `t`, `f`, `n`. */
const SCALAR_START = new Set([0x2d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x74, 0x66, 0x6e]);
/** What may come right before a value: nothing, `[`, `,`, `:` and whitespace. */
const BEFORE_VALUE = new Set([-1, OPEN_BRACKET, COMMA, 0x3a, 0x20, 0x09, 0x0a, 0x0d]);

/**
 * Checks what parsing a JSON text would build, in one pass over its bytes as they arrive and without building
 * anything: refuses nesting deeper than `maxDepth` and more than `maxValues` values, with the path to where the bound
 * was crossed, so a body is refused before it has all arrived. Parsing costs memory in proportion to the values (an
 * 8 MiB body of `{}` is a million objects, about 200 MiB); this costs a small object per level of nesting in use. It
 * does not check the syntax (the parser does, after it, on a text this found bounded). Structural characters are
 * ASCII, and no byte of a multi-byte UTF-8 character is, so bytes are scanned as they are. `decodeKey` turns a key's
 * JSON string token into its text, only to name a path.
 */
export function createJsonTextScanner(limits: JsonTextLimits, decodeKey: (token: string) => string): JsonTextScanner {
  const frames: Frame[] = [];
  let values = 0;
  let expectKey = false;
  let inString = false;
  let escaped = false;
  /** The key being read, when the string being read is one. */
  let key: number[] | undefined;
  let keyCut = false;
  let previous = -1;
  let problem: JsonTextProblem | undefined;
  const path = (): Array<string | number> => frames.map((frame) => (frame.array ? frame.index : keyText(frame, decodeKey)));
  return {
    push(bytes) {
      if (problem !== undefined) return problem;
      for (const code of bytes) {
        if (inString) {
          if (escaped) escaped = false;
          else if (code === BACKSLASH) escaped = true;
          else if (code === QUOTE) {
            inString = false;
            if (key !== undefined) {
              const top = frames[frames.length - 1]!;
              top.key = key;
              top.keyCut = keyCut;
              key = undefined;
            }
            previous = code;
            continue;
          }
          if (key !== undefined) {
            if (key.length < KEY_BYTES) key.push(code);
            else keyCut = true;
          }
          continue;
        }
        if (code === QUOTE) {
          inString = true;
          const top = frames[frames.length - 1];
          if (top !== undefined && !top.array && expectKey) {
            key = [];
            keyCut = false;
            expectKey = false;
          } else values += 1;
        } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
          values += 1;
          if (values > limits.maxValues) return (problem = { code: 'body_too_complex', path: path() });
          if (frames.length >= limits.maxDepth) return (problem = { code: 'input_too_deep', path: path() });
          frames.push({ array: code === OPEN_BRACKET, index: 0, key: undefined, keyCut: false });
          expectKey = code === OPEN_BRACE;
        } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
          frames.pop();
          expectKey = false;
        } else if (code === COMMA) {
          const top = frames[frames.length - 1];
          if (top?.array === true) top.index += 1;
          else expectKey = true;
        } else if (SCALAR_START.has(code) && BEFORE_VALUE.has(previous)) {
          values += 1;
        }
        if (values > limits.maxValues) return (problem = { code: 'body_too_complex', path: path() });
        previous = code;
      }
      return undefined;
    },
  };
}

/** A frame's key for a path: decoded, or its first characters when cut or undecodable. */
function keyText(frame: Frame, decodeKey: (token: string) => string): string {
  const raw = Buffer.from(frame.key ?? []).toString('utf8');
  if (frame.keyCut) return `${raw.slice(0, 40)}…`;
  try {
    return decodeKey(`"${raw}"`);
  } catch {
    return raw;
  }
}
