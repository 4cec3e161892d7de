// Benchmark of eager dispatch (issue 14 §3): the wall time of a turn whose first response streams several tool calls
// slowly (the testkit's slow stream: a pause between two SSE events), with eager dispatch on (calls start when their
// item is complete) and off (calls start after the whole response). Runs the runtime's SOURCE through the TypeScript
// hooks (no build needed) against the BUILT @core/testkit: `node bench/eager-dispatch.mjs` (`--quick`: 1 run each).
// A turn is two model calls: the calls, then a short text answer. Prints per scenario the median turn wall time off
// and on, what eager dispatch saved, and on / ideal, where "ideal" is the turn computed from the same run's item
// completion times with zero overhead (each call starting the moment its ordering allows); ≤ 1.10 meets the target.
import { register } from 'node:module';
import { buildResponse, reply, responseStreamEvents, startTestModelServer } from '@core/testkit';
import { z } from 'zod';

register('./typescript-hooks.mjs', import.meta.url);
const { createOpenAIResponsesGateway, defineWorkerTool, runAgentLoop } = await import('../src/index.ts');

const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const CALLS = 5;
const EVENT_DELAY_MS = 40;
const TARGET = 1.1;

// toolMs[i]: how long call i runs (a simulated fetch).
const scenarios = [
  { name: `${CALLS} parallel read-only calls, 400 ms each`, executionMode: 'parallel', readOnly: true, toolMs: [400, 400, 400, 400, 400] },
  {
    name: `${CALLS} parallel read-only calls, the first 1200 ms, the others 150 ms`,
    executionMode: 'parallel',
    readOnly: true,
    toolMs: [1200, 150, 150, 150, 150],
  },
  { name: `${CALLS} sequential read-only calls, 250 ms each`, executionMode: 'sequential', readOnly: true, toolMs: [250, 250, 250, 250, 250] },
  {
    name: `${CALLS} parallel calls of a tool that writes (never eager), 400 ms each`,
    executionMode: 'parallel',
    readOnly: false,
    toolMs: [400, 400, 400, 400, 400],
  },
];

function toolFor(scenario) {
  return defineWorkerTool({
    name: 'fetch_page',
    description: 'Fetches a page (simulated: waits).',
    schema: z.object({ url: z.string() }),
    executionMode: scenario.executionMode,
    isReadOnly: scenario.readOnly,
    describeActivity: ({ url }) => `Fetching ${url}`,
    execute: async ({ url }, context) => {
      const runMs = scenario.toolMs[Number(url.split('/').at(-1))];
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, runMs);
        context.signal.addEventListener('abort', () => (clearTimeout(timer), reject(context.signal.reason)), { once: true });
      });
      return { content: `page ${url}` };
    },
  });
}

const callsStep = () =>
  reply.functionCalls(
    Array.from({ length: CALLS }, (_, index) => ({ name: 'fetch_page', arguments: { url: `https://example.com/${index}` }, callId: `c${index}` })),
  );

/** One turn; returns its wall time and the timestamps the ideal is computed from. */
async function turn(scenario, eagerDispatch) {
  const server = await startTestModelServer({ script: [reply.slow(callsStep(), { delayMs: EVENT_DELAY_MS }), reply.text('Here is what the pages say.')] });
  const inner = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'bench', model: 'test-model' });
  const marks = { itemDone: [], complete: [], secondStarted: 0, secondTook: 0 };
  let started = 0;
  const now = () => performance.now() - started;
  let step = 0;
  const gateway = {
    usesPreviousResponseId: false,
    async createResponse(request, options = {}) {
      step += 1;
      const at = now();
      const response = await inner.createResponse(request, {
        ...options,
        onOutputItemDone: (item, source) => {
          if (step === 1) marks.itemDone.push(now());
          options.onOutputItemDone?.(item, source);
        },
      });
      if (step === 1) marks.complete = now();
      else {
        marks.secondStarted = at;
        marks.secondTook = now() - at;
      }
      return response;
    },
  };
  try {
    started = performance.now();
    const result = await runAgentLoop({ gateway, tools: [toolFor(scenario)], input: 'Summarise these pages.', eagerDispatch });
    const wall = now();
    if (result.reason !== 'completed' || result.toolCalls !== CALLS)
      throw new Error(`bench turn ended ${result.reason} with ${result.toolCalls} calls: ${result.error ?? ''}`);
    return { wall, marks };
  } finally {
    await server.close();
  }
}

/** The turn with zero overhead: calls start when their ordering (and eager dispatch) allows, run their toolMs, then step 2. */
function ideal(scenario, marks, eager) {
  const canStart = (index) => (eager && scenario.readOnly ? marks.itemDone[index] : marks.complete);
  let callsEnd = 0;
  if (scenario.executionMode === 'parallel') {
    for (let index = 0; index < CALLS; index += 1) callsEnd = Math.max(callsEnd, canStart(index) + scenario.toolMs[index]);
  } else {
    for (let index = 0; index < CALLS; index += 1) callsEnd = Math.max(callsEnd, canStart(index)) + scenario.toolMs[index];
  }
  return Math.max(callsEnd, marks.complete) + marks.secondTook;
}

const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;

console.log(`eager dispatch: ${CALLS} calls streamed with ${EVENT_DELAY_MS} ms between SSE events, median of ${RUNS} turns each (interleaved)`);
let missed = false;
for (const scenario of scenarios) {
  await turn(scenario, true); // warm-up (connections, JIT)
  const off = [];
  const on = [];
  const ideals = [];
  let streamed = [];
  for (let run = 0; run < RUNS; run += 1) {
    const withoutEager = await turn(scenario, false);
    off.push(withoutEager.wall);
    const withEager = await turn(scenario, true);
    on.push(withEager.wall);
    ideals.push(ideal(scenario, withEager.marks, true));
    streamed.push(withEager.marks.complete);
  }
  const ratio = median(on) / median(ideals);
  if (ratio > TARGET) missed = true;
  console.log(`\n${scenario.name}`);
  console.log(`  first response streams for  ${ms(median(streamed))}`);
  console.log(`  turn wall, eager off        ${ms(median(off))}`);
  console.log(
    `  turn wall, eager on         ${ms(median(on))}   saved ${ms(median(off) - median(on))} (${((1 - median(on) / median(off)) * 100).toFixed(0)}%)`,
  );
  console.log(`  ideal with eager on         ${ms(median(ideals))}   on / ideal ${ratio.toFixed(3)} (target ≤ ${TARGET})`);
}
process.exitCode = missed ? 1 : 0;
