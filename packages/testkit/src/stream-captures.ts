import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StreamEvent } from './stream-events.js';
import { TestkitError } from './testkit-error.js';

/** The stream captures shipped in the package's `captures/` folder (written from the OpenAPI description). */
export const STREAM_CAPTURES = [
  'stateless-reasoning-without-encrypted-content',
  'custom-tool-call',
  'parallel-tool-call-wrapper',
  'phased-messages',
] as const;

/** The name of a shipped stream capture. */
export type StreamCaptureName = (typeof STREAM_CAPTURES)[number];

/**
 * Reads a stream capture: one Responses stream event per line (JSON Lines; blank lines skipped), as
 * `reply.capture` serves it.
 * @throws {TestkitError} `capture_unreadable` when the file cannot be read, `capture_malformed` when a line is not a
 *   JSON object with a string `type`.
 */
export function readStreamCapture(path: string): StreamEvent[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TestkitError('capture_unreadable', `Cannot read the stream capture ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const events: StreamEvent[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new TestkitError('capture_malformed', `Line ${index + 1} of the stream capture ${path} is not JSON.`, { cause: error });
    }
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
      throw new TestkitError('capture_malformed', `Line ${index + 1} of the stream capture ${path} is not a stream event (an object with a string "type").`);
    }
    events.push(value as StreamEvent);
  }
  return events;
}

/** The path of a shipped stream capture (`captures/<name>.jsonl` in this package). */
export function streamCapturePath(name: StreamCaptureName): string {
  return fileURLToPath(new URL(`../captures/${name}.jsonl`, import.meta.url));
}

/**
 * The events of a shipped stream capture, for `reply.capture(streamCapture(name))`.
 * @throws {TestkitError} as `readStreamCapture`.
 */
export function streamCapture(name: StreamCaptureName): StreamEvent[] {
  return readStreamCapture(streamCapturePath(name));
}
