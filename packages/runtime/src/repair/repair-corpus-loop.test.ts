import { reply } from '@core/testkit';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { eventLog, gatewayFor, historyProblem, outputFor, withServer } from '../__fixtures__/loop-harness.js';
import { isAmbiguous, ownCorpus, readSharedCorpus, sharedCorpusFile, type CorpusCase } from '../__fixtures__/malformed-args-corpus.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';

/*
 * The repair ladder end to end: every `arguments` string of the own corpus (and of the shared dev corpus
 * ../shared/reference/malformed-args.dev.jsonl when it is there) is streamed by the testkit server as a function call
 * of one response, read by the real openai SDK, validated by dispatch and either run (the tool records what it
 * received) or answered with an error output the model sees.
 */
const shared = readSharedCorpus();
if (shared === undefined) console.log(`shared corpus ${sharedCorpusFile} is absent: its loop check is skipped (the own corpus always runs).`);

describe('repair corpus through runAgentLoop (openai SDK over HTTP to the testkit)', () => {
  it('own corpus: gives the tool the expected object, or the model an error, for at least 95% of the cases', async () => {
    await throughTheLoop('own corpus', ownCorpus());
  }, 60_000);

  it.skipIf(shared === undefined)(
    'shared dev corpus (extra): the same for at least 95% of the non-ambiguous cases',
    async () => {
      await throughTheLoop('shared dev corpus', shared ?? []);
    },
    60_000,
  );
});

async function throughTheLoop(name: string, cases: CorpusCase[]): Promise<void> {
  const received = new Map<string, unknown>();
  const corpusTool = defineWorkerTool({
    name: 'corpus_tool',
    description: 'Accepts any object.',
    jsonSchema: { type: 'object' },
    executionMode: 'parallel',
    describeActivity: () => 'corpus',
    execute: (params, context) => {
      received.set(context.callId, params);
      return { content: 'ok' };
    },
  });
  const callId = (index: number) => `call_corpus_${index}`;
  await withServer(
    [reply.functionCalls(cases.map((entry, index) => ({ name: 'corpus_tool', arguments: entry.input, callId: callId(index) }))), reply.text('done')],
    async (server) => {
      const log = eventLog();
      // The corpus is ~1.6 MB of arguments in one response (about 400k tokens): no context budget, so nothing is compacted.
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [corpusTool], input: 'go', onEvent: log.onEvent, context: false });
      expect(result.reason).toBe('completed');
      expect(result.toolCalls).toBe(cases.length);
      expect(historyProblem(result.items)).toBeUndefined();

      // The SDK handed dispatch the exact strings the server streamed.
      const sent = (server.requests[1]?.body.input as Array<Record<string, unknown>>).filter((item) => item.type === 'function_call');
      expect(sent.map((item) => item.arguments)).toEqual(cases.map((entry) => entry.input));

      let total = 0;
      let matched = 0;
      const misses: string[] = [];
      cases.forEach((entry, index) => {
        const id = callId(index);
        const output = outputFor(server.requests[1]?.body ?? {}, id);
        const ran = received.has(id);
        // A call either ran (output "ok") or was refused with the validation message, never both.
        expect(output, entry.id).toEqual(ran ? 'ok' : expect.stringMatching(/^Error: invalid arguments for tool "corpus_tool": Invalid arguments/));
        if (isAmbiguous(entry)) return;
        total += 1;
        const ok = entry.expected === null ? !ran : ran && isDeepStrictEqual(received.get(id), entry.expected);
        if (ok) matched += 1;
        else
          misses.push(`${entry.id}: expected ${JSON.stringify(entry.expected)}, got ${ran ? JSON.stringify(received.get(id)) : String(output).slice(0, 120)}`);
      });
      console.log(
        [
          `${name} through the loop: ${matched}/${total} non-ambiguous cases matched (${((matched / total) * 100).toFixed(1)}%)`,
          ...misses.map((miss) => `  miss ${miss}`),
        ].join('\n'),
      );
      expect(matched / total).toBeGreaterThanOrEqual(0.95);
      // Every refused call still got its activity pair, with status invalid_arguments.
      const refused = log.of('activity.completed').filter((event) => event.status !== 'success');
      expect(refused.length).toBe(cases.length - received.size);
    },
  );
}
