// Benchmark of the context budget's cost in the loop (issue 30): a 40-step turn whose tool returns 20 KB each step,
// against an in-process gateway (no HTTP, so the loop's own work is what is measured), with the budget off
// (`context: false`) and on (the default checks with a window large enough never to compact), and on with a small
// window and `localCompactor()` (the checks plus every compaction). Runs the BUILT package (`npx tsup` first):
// `node bench/context.mjs [--quick]`. Prints the median and p95 per turn, and each one's ratio to the turn without a
// budget (the target: at most 1.15x for the checks).
import { defineWorkerTool, localCompactor, runAgentLoop } from '@core/runtime';
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

/** A gateway that answers at once: a call per step, then a text; usage as the testkit counts it (characters / 4). */
function scriptedGateway() {
  let step = 0;
  return {
    usesPreviousResponseId: false,
    model: 'bench-model',
    async createResponse(request) {
      step += 1;
      const inputTokens = Math.ceil(JSON.stringify(request.input).length / 4);
      const output =
        step <= STEPS
          ? [{ type: 'function_call', id: `fc_${step}`, call_id: `call_${step}`, name: 'read_file', arguments: `{"path":"f${step}"}`, status: 'completed' }]
          : [{ type: 'message', id: 'msg_end', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }];
      return { id: `resp_${step}`, status: 'completed', output, usage: { inputTokens, outputTokens: 10, totalTokens: inputTokens + 10 } };
    },
  };
}

async function turn(context) {
  const result = await runAgentLoop({ gateway: scriptedGateway(), tools: [readFile], input: 'Read the files.', maxSteps: STEPS + 2, context });
  if (result.reason !== 'completed') throw new Error(`the turn ended ${result.reason}: ${result.error}`);
  return result;
}

async function measure(context, runs) {
  for (let index = 0; index < 3; index += 1) await turn(context);
  const samples = [];
  let compactions = 0;
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const result = await turn(context);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    compactions = result.compactions;
  }
  samples.sort((left, right) => left - right);
  const at = (fraction) => samples[Math.min(samples.length - 1, Math.floor(fraction * samples.length))];
  return { median: at(0.5), p95: at(0.95), compactions };
}

const runs = quick ? 15 : 60;
const cases = [
  ['budget off (context: false)', false],
  ['budget on, no compaction (window 1M)', { window: 1_000_000 }],
  ['budget on, local compaction (window 80k)', { window: 80_000, compactor: localCompactor() }],
];
console.log(`context budget: ${STEPS}-step turn, 20 KB output per step, ${runs} runs each; load ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
let baseline;
// Interleaved rounds, so a change of machine load hits every case alike.
const results = new Map(cases.map(([name]) => [name, []]));
for (let round = 0; round < 3; round += 1) {
  for (const [name, context] of cases) results.get(name).push(await measure(context, Math.ceil(runs / 3)));
}
for (const [name] of cases) {
  const rounds = results.get(name);
  const median = rounds.map((row) => row.median).sort((a, b) => a - b)[1];
  const p95 = Math.max(...rounds.map((row) => row.p95));
  baseline ??= median;
  const ratio = median / baseline;
  console.log(`${name.padEnd(44)} median ${median.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  compactions ${rounds[0].compactions}  ratio ${ratio.toFixed(2)}x${name.includes('no compaction') ? ` (target <= 1.15x: ${(ratio / 1.15).toFixed(2)} of it)` : ''}`);
}
