// Benchmark of the context budget's cost in the loop (issue 30): a 40-step turn whose tool returns 20 KB each step,
// with the budget off (`context: false`), on (the default checks, with a window large enough never to compact), and
// on with an 80k window and `localCompactor()` (the checks plus every compaction). Twice: against an in-process
// gateway (no HTTP: the loop's own work, in µs per step), and through the real openai SDK over HTTP to the testkit
// server (a turn as tests run it). Runs the BUILT packages (`npx tsup` in runtime and testkit first):
// `node bench/context.mjs [--quick]`. Prints the median and p95 per turn and the ratio to the turn without a budget
// (target for the checks over HTTP: at most 1.15x).
import { createOpenAIResponsesGateway, defineWorkerTool, localCompactor, runAgentLoop } from '@core/runtime';
import { reply, startTestModelServer } from '@core/testkit';
import { loadavg } from 'node:os';
import { z } from 'zod';

const quick = process.argv.includes('--quick');
const STEPS = 40;
const OUTPUT = 'x'.repeat(20_480);

const readFile = defineWorkerTool({
  name: 'read_file',
  description: 'Reads a file.',
  schema: z.object({ path: z.string() }),
  isReadOnly: true,
  describeActivity: (params) => `Reading ${params.path}`,
  execute: async () => ({ content: OUTPUT }),
});

/** A gateway that answers at once: a call per step, then a text, with a usage that grows with the input. */
function scriptedGateway() {
  let step = 0;
  return {
    usesPreviousResponseId: false,
    model: 'bench-model',
    async createResponse(request) {
      step += 1;
      // About what the testkit would count, without serialising the input here: the loop's own work is what is measured.
      const inputTokens = Math.ceil(request.input.reduce((sum, item) => sum + (typeof item.output === 'string' ? item.output.length : 200), 400) / 4);
      const output =
        step <= STEPS
          ? [{ type: 'function_call', id: `fc_${step}`, call_id: `call_${step}`, name: 'read_file', arguments: `{"path":"f${step}"}`, status: 'completed' }]
          : [{ type: 'message', id: 'msg_end', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }];
      return { id: `resp_${step}`, status: 'completed', output, usage: { inputTokens, outputTokens: 10, totalTokens: inputTokens + 10 } };
    },
  };
}

async function turn(context, makeGateway) {
  const result = await runAgentLoop({ gateway: await makeGateway(), tools: [readFile], input: 'Read the files.', maxSteps: STEPS + 2, context });
  if (result.reason !== 'completed') throw new Error(`the turn ended ${result.reason}: ${result.error}`);
  return result;
}

async function measure(context, runs, makeGateway) {
  for (let index = 0; index < 2; index += 1) await turn(context, makeGateway);
  const samples = [];
  let compactions = 0;
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const result = await turn(context, makeGateway);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    compactions = result.compactions;
  }
  samples.sort((left, right) => left - right);
  const at = (fraction) => samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))];
  return { median: at(0.5), p95: at(0.95), compactions };
}

const cases = [
  ['budget off (context: false)', false],
  ['budget on, no compaction (window 1M)', { window: 1_000_000 }],
  ['budget on, local compaction (window 80k)', { window: 80_000, compactor: localCompactor() }],
];

async function compare(title, runs, makeGateway, perStep) {
  console.log(
    `${title}: ${STEPS}-step turn, 20 KB output per step, ${runs} runs each; load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  // Interleaved rounds, so a change of machine load hits every case alike; the median of the rounds' medians.
  const results = new Map(cases.map(([name]) => [name, []]));
  for (let round = 0; round < 3; round += 1) {
    for (const [name, context] of cases) results.get(name).push(await measure(context, Math.ceil(runs / 3), makeGateway));
  }
  let baseline;
  for (const [name] of cases) {
    const rounds = results.get(name);
    const median = rounds.map((row) => row.median).sort((a, b) => a - b)[1];
    const p95 = Math.max(...rounds.map((row) => row.p95));
    baseline ??= median;
    const ratio = median / baseline;
    const extra = perStep
      ? `  (${(((median - baseline) * 1000) / (STEPS + 1)).toFixed(1)} µs a step over the baseline)`
      : name.includes('no compaction')
        ? `  (target <= 1.15x: ${(ratio / 1.15).toFixed(2)} of it)`
        : '';
    console.log(
      `  ${name.padEnd(42)} median ${median.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  compactions ${rounds[0].compactions}  ratio ${ratio.toFixed(2)}x${extra}`,
    );
  }
}

await compare('in-process gateway', quick ? 30 : 120, () => scriptedGateway(), true);

// Over HTTP: a testkit server with a 10M-token window (it never refuses), whose script reads 40 files then answers.
const script = () => [
  ...Array.from({ length: STEPS }, (_, index) => reply.functionCalls([{ name: 'read_file', arguments: { path: `f${index}` } }])),
  reply.text('done'),
];
let server;
await compare(
  'openai SDK over HTTP to the testkit',
  quick ? 6 : 15,
  async () => {
    await server?.close();
    server = await startTestModelServer({ script: script(), contextWindow: 10_000_000, checkRequestSchema: false });
    return createOpenAIResponsesGateway({ apiKey: 'bench', baseURL: server.baseURL, model: 'bench-model', maxRetries: 0 });
  },
  false,
);
await server?.close();
