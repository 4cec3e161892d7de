import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { reply, type StreamEvent } from '@core/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { gatewayFor, historyProblem, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

// Real recorded Responses streams (another SDK's live captures), read at test time from ../shared beside the
// checkout and never copied: each is replayed through the testkit server, the real SDK and runAgentLoop.
const folder = fileURLToPath(new URL('../../../../../shared/corpora/recorded-streams', import.meta.url));
const present = existsSync(folder);
const skipNote = 'skipped: ../shared/corpora/recorded-streams absent (the recorded streams are not beside this checkout)';
if (!present) console.warn(`recorded-streams.test.ts: the replay of recorded streams ${skipNote}`);

let unparseableLines = 0;

/** Every stream of every `*.chunks.txt` file (a file may hold several, each from its `response.created`). */
function recordedStreams(): Array<[string, StreamEvent[]]> {
  if (!present) return [];
  const streams: Array<[string, StreamEvent[]]> = [];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.chunks.txt'))
    .sort()) {
    const events = readFileSync(`${folder}/${file}`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as StreamEvent];
        } catch {
          // One recorded line is cut short (not JSON); the stream is replayed without it.
          unparseableLines += 1;
          return [];
        }
      });
    let current: StreamEvent[] = [];
    const parts: StreamEvent[][] = [current];
    for (const event of events) {
      if (event.type === 'response.created' && current.length > 0) parts.push((current = []));
      current.push(event);
    }
    parts.forEach((part, index) => streams.push([parts.length === 1 ? file : `${file} #${index + 1}`, part]));
  }
  return streams;
}

/** A permissive tool for every function the stream calls (namespaced ones in their namespace); `ran` gets each call's key. */
function toolsFor(events: readonly StreamEvent[], ran: string[]): AnyWorkerAgentTool[] {
  const seen = new Map<string, AnyWorkerAgentTool>();
  for (const event of events) {
    const item = event.item as { type?: string; name?: string; namespace?: string } | undefined;
    if (event.type !== 'response.output_item.done' || item?.type !== 'function_call' || typeof item.name !== 'string') continue;
    const key = item.namespace ? `${item.namespace}.${item.name}` : item.name;
    if (seen.has(key) || item.name === 'parallel') continue;
    seen.set(
      key,
      defineWorkerTool({
        name: item.name,
        ...(item.namespace ? { namespace: item.namespace } : {}),
        description: `Replayed tool ${key}.`,
        jsonSchema: { type: 'object', additionalProperties: true },
        strict: false,
        describeActivity: () => key,
        execute: () => {
          ran.push(key);
          return { content: `result of ${key}` };
        },
      }),
    );
  }
  // The recipients of a multi_tool_use.parallel wrapper.
  for (const event of events) {
    const item = event.item as { type?: string; name?: string; arguments?: string } | undefined;
    if (event.type !== 'response.output_item.done' || item?.name !== 'parallel' || typeof item.arguments !== 'string') continue;
    for (const use of (JSON.parse(item.arguments) as { tool_uses?: Array<{ recipient_name: string }> }).tool_uses ?? []) {
      const name = use.recipient_name.replace(/^functions\./, '');
      if (!seen.has(name)) {
        seen.set(
          name,
          defineWorkerTool({
            name,
            description: `Replayed tool ${name}.`,
            jsonSchema: { type: 'object', additionalProperties: true },
            strict: false,
            describeActivity: () => name,
            execute: () => {
              ran.push(name);
              return { content: `result of ${name}` };
            },
          }),
        );
      }
    }
  }
  return [...seen.values()];
}

/** The recipients of the stream's multi_tool_use.parallel wrappers, and the text of its final-answer messages. */
function expectations(events: readonly StreamEvent[]): { recipients: string[]; finalAnswer: string | undefined } {
  const recipients: string[] = [];
  let finalAnswer: string | undefined;
  for (const event of events) {
    if (event.type !== 'response.output_item.done') continue;
    const item = event.item as { type?: string; name?: string; arguments?: string; phase?: string; content?: Array<{ text?: string }> };
    if (item.type === 'function_call' && item.name === 'parallel' && typeof item.arguments === 'string') {
      for (const use of (JSON.parse(item.arguments) as { tool_uses?: Array<{ recipient_name: string }> }).tool_uses ?? []) {
        recipients.push(use.recipient_name.replace(/^functions\./, ''));
      }
    }
    if (item.type === 'message' && item.phase === 'final_answer')
      finalAnswer = (finalAnswer === undefined ? '' : `${finalAnswer}\n\n`) + (item.content ?? []).map((part) => part.text ?? '').join('');
  }
  return { recipients, finalAnswer };
}

/** A stream that ends in an error: an `error` event, a failed response, or no terminal event at all (cut). */
function endsInError(events: readonly StreamEvent[]): boolean {
  const terminal = events.some((event) => ['response.completed', 'response.incomplete'].includes(event.type));
  return !terminal || events.some((event) => event.type === 'error' || event.type === 'response.failed');
}

const figures = { streams: 0, completed: 0, continued: 0, errors: 0 };
afterAll(() => {
  if (present)
    console.info(
      `recorded streams replayed: ${figures.streams}; ended completed: ${figures.completed} (${figures.continued} after a second, accepted request); ended with the API's error or a cut stream: ${figures.errors}; recorded lines that are not JSON, left out: ${unparseableLines}`,
    );
});

describe.skipIf(!present)(`recorded Responses streams replay through runAgentLoop${present ? '' : ` (${skipNote})`}`, () => {
  it.each(recordedStreams())('%s', async (_name, events) => {
    figures.streams += 1;
    await withServer([reply.capture(events)], async (server) => {
      const ran: string[] = [];
      const result = await runAgentLoop({ gateway: gatewayFor(server, { maxRetries: 0 }), tools: toolsFor(events, ran), input: 'Replay.', maxSteps: 2 });
      const expected = expectations(events);
      if (endsInError(events)) {
        expect(result.reason).toBe('error');
        expect(result.error).not.toMatch(/\.\.$/);
        figures.errors += 1;
        return;
      }
      // A parallel wrapper's inner calls ran (not "unknown tool parallel").
      expect(ran).toEqual(expect.arrayContaining(expected.recipients));
      // The second request (when the turn went on) got past every check of the testkit; it was answered by the
      // script's end, which is the one error allowed here.
      if (result.steps === 2) {
        expect(result.error).toMatch(/testkit script exhausted/);
        figures.continued += 1;
      } else {
        expect({ reason: result.reason, error: result.error }).toEqual({ reason: 'completed', error: undefined });
        // With phases, the turn's text is the final answer alone.
        if (expected.finalAnswer !== undefined) expect(result.text).toBe(expected.finalAnswer);
      }
      expect(historyProblem(result.items)).toBeUndefined();
      figures.completed += 1;
    });
  });
});
