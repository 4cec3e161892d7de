import { MAX_INPUT_DEPTH, outputPath } from '@core/control-plane-client';
import { createJsonTextScanner, type JsonTextProblem } from './scan-json-text.js';

/** The most JSON values one request body may hold (objects, arrays, strings, numbers and literals). */
export const MAX_BODY_VALUES = 250_000;

/** A request body `readJsonBody` refused: the HTTP status, the wire code and a message naming what and where. */
export interface BodyRefusal {
  status: 400 | 413;
  /** Whether the body was left partly unread (the connection should close after the answer). */
  unread?: boolean | undefined;
  code: 'body_too_large' | 'body_invalid' | 'input_too_deep' | 'body_too_complex';
  message: string;
  field?: string | undefined;
}

/** Options of `readJsonBody`. */
export interface ReadJsonBodyOptions {
  /** The largest body, in bytes: a larger `Content-Length` is refused before reading, a longer stream as soon as it passes it. */
  maxBytes: number;
  /** The deepest nesting of objects and arrays (default `MAX_INPUT_DEPTH`, 64; the body is level 1). */
  maxDepth?: number | undefined;
  /** The most values the body may hold (default `MAX_BODY_VALUES`). */
  maxValues?: number | undefined;
}

/**
 * Reads a request's body as one JSON object, bounding what it may cost before anything is built from it: the bytes
 * (counted while streaming, so an oversized body is refused without holding it) and, as it arrives, the nesting and
 * the number of values (`createJsonTextScanner`), and only then `JSON.parse` of the whole text. The one place the HTTP control plane
 * parses untrusted JSON.
 * @returns the object, or the refusal to answer with (413 `body_too_large`; 400 `body_invalid` for bytes that are not
 *   UTF-8, text that is not JSON or JSON that is not an object; 400 `input_too_deep` or `body_too_complex` with the path).
 */
export async function readJsonBody(request: Request, options: ReadJsonBodyOptions): Promise<{ value: Record<string, unknown> } | { refusal: BodyRefusal }> {
  const tooLarge = { refusal: { status: 413, code: 'body_too_large', unread: true, message: `The request body is larger than ${options.maxBytes} bytes, the limit of this call.` } } as const;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) return tooLarge;
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const maxValues = options.maxValues ?? MAX_BODY_VALUES;
  const scanner = createJsonTextScanner({ maxDepth, maxValues }, (token) => JSON.parse(token) as string);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let problem: JsonTextProblem | undefined;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      problem = size > options.maxBytes ? undefined : scanner.push(value);
      if (size > options.maxBytes || problem !== undefined) {
        // Refused while it arrives: the rest is not read (the caller closes the connection).
        await reader.cancel().catch(() => undefined);
        if (problem === undefined) return tooLarge;
        break;
      }
      chunks.push(value);
    }
  }
  if (problem?.code === 'input_too_deep') {
    return {
      refusal: {
        status: 400,
        code: 'input_too_deep',
        unread: true,
        message: `The request body nests objects and arrays deeper than ${maxDepth} levels at ${shortPath(problem.path)}; flatten it (or send it as a JSON string).`,
        field: problem.path.join('.') || undefined,
      },
    };
  }
  if (problem?.code === 'body_too_complex') {
    return {
      refusal: {
        status: 400,
        code: 'body_too_complex',
        unread: true,
        message: `The request body holds more than ${maxValues} JSON values (passed at ${shortPath(problem.path)}); send fewer or smaller items per call.`,
        field: problem.path.join('.') || undefined,
      },
    };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size));
  } catch {
    return invalid('The request body is not valid UTF-8.');
  }
  chunks.length = 0;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid("The request body must be a JSON object (the call's input).");
  return { value: value as Record<string, unknown> };
}

function invalid(message: string): { refusal: BodyRefusal } {
  return { refusal: { status: 400, code: 'body_invalid', message } };
}

/** A JSON path for a message: whole up to 12 steps, else the first 8, `…` and the last 2. */
function shortPath(path: ReadonlyArray<string | number>): string {
  if (path.length <= 12) return outputPath(path);
  return `${outputPath(path.slice(0, 8))}…${outputPath(path.slice(-2)).slice(1)}`;
}
