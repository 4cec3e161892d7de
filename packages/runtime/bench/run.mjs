// Benchmark of the runtime's hot paths against the targets of issue 2 §5 and issue 14 §2 (per-call overhead of a
// whole turn, collection on a later turn, validation against its floor).
// Runs the BUILT package (run `npx tsup` first): `node bench/run.mjs` (or `pnpm bench`).
// Prints one row per measurement: median and p95, the target, and median / target (≤ 1 meets the target).
import { agentToolMap, collectToolSchemas, defineWorkerTool, dispatchToolCalls, runAgentLoop, validateToolArguments } from '@core/runtime';
import { z } from 'zod';

const quick = process.argv.includes('--quick');

/** Per-operation samples: each sample is the mean time of one batch of `batchSize` operations, in µs. */
function measure(operation, { batches, batchSize, warmup }) {
  for (let index = 0; index < warmup; index += 1) operation();
  const samples = [];
  for (let batch = 0; batch < batches; batch += 1) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < batchSize; index += 1) operation();
    samples.push(Number(process.hrtime.bigint() - started) / 1000 / batchSize);
  }
  return summarise(samples);
}

async function measureAsync(operation, { runs, warmup, perRun = 1 }) {
  for (let index = 0; index < warmup; index += 1) await operation();
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    await operation();
    samples.push(Number(process.hrtime.bigint() - started) / 1000 / perRun);
  }
  return summarise(samples);
}

function summarise(samples) {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
  return { median: at(0.5), p95: at(0.95), samples: sorted.length };
}

// --- fixtures -------------------------------------------------------------------------------------------

function makeTools(count) {
  const tools = [];
  for (let index = 0; index < count; index += 1) {
    const namespace = index % 4 === 0 ? `group_${index % 12}` : undefined;
    tools.push(
      defineWorkerTool({
        name: `tool_${index}`,
        description: `Tool number ${index}: reads or writes something useful for the agent.`,
        schema: z.object({
          path: z.string().describe('A path relative to the home folder.'),
          limit: z.number().int().min(1).max(1000).optional(),
          mode: z.enum(['read', 'write', 'append']),
          tags: z.array(z.string()).max(10).optional(),
        }),
        strict: index % 2 === 0,
        ...(namespace === undefined ? {} : { namespace, namespaceDescription: `Tools of group ${namespace}.` }),
        deferLoading: index % 10 === 0,
        executionMode: index % 3 === 0 ? 'sequential' : 'parallel',
        describeActivity: (params) => `Working on ${params.path}`,
        execute: async () => ({ content: 'ok' }),
      }),
    );
  }
  return tools;
}

const writeFile = defineWorkerTool({
  name: 'write_file',
  description: 'Writes a text file in the agent home.',
  schema: z.object({
    path: z.string().min(1),
    content: z.string(),
    mode: z.enum(['overwrite', 'append']).default('overwrite'),
    createDirectories: z.boolean().optional(),
    encoding: z.enum(['utf8', 'base64']).optional(),
  }),
  describeActivity: (params) => `Writing ${params.path}`,
  execute: async () => ({ content: 'ok' }),
});
const typicalArguments = JSON.stringify({
  path: 'notes/2026-11-30/meeting-summary.md',
  content: 'Agreed: ship the runtime on Friday. Owners: Ana (loop), Ben (schemas). Open: retries on 529?',
  mode: 'overwrite',
  createDirectories: true,
  encoding: 'utf8',
});

const strictWriteFile = defineWorkerTool({ ...writeFile, name: 'write_file_strict', strict: true });

/** Ten tools of 5–6 Zod fields and a fake model answering a response of `count` calls, then text; checks every output went back. */
function turnWorkload(count) {
  const turnTools = [];
  for (let index = 0; index < 10; index += 1) {
    turnTools.push(
      defineWorkerTool({
        name: `find_${index}`,
        description: `Finds notes of kind ${index}.`,
        schema: z.object({
          path: z.string().describe('A folder relative to the home folder.'),
          query: z.string().min(1),
          limit: z.number().int().min(1).max(1000).optional(),
          mode: z.enum(['read', 'write', 'append']),
          recursive: z.boolean(),
          ...(index % 2 === 0 ? { tags: z.array(z.string()).max(10).optional() } : {}),
        }),
        strict: true,
        executionMode: 'parallel',
        isReadOnly: true,
        describeActivity: (params) => `Finding in ${params.path}`,
        execute: async () => ({ content: 'ok' }),
      }),
    );
  }
  const output = [];
  for (let index = 0; index < count; index += 1) {
    const tool = index % 10;
    const args = {
      path: `notes/2026-11-30/project-${index}/summary-${tool}.md`,
      query: 'owners of the runtime milestone and open questions',
      limit: index % 3 === 0 ? null : 25,
      mode: 'read',
      recursive: index % 2 === 0,
    };
    if (tool % 2 === 0) args.tags = index % 4 === 0 ? null : ['runtime', 'perf'];
    output.push({
      type: 'function_call',
      id: `fc_${index}`,
      call_id: `call_${index}`,
      name: `find_${tool}`,
      arguments: JSON.stringify(args),
      status: 'completed',
    });
  }
  const calling = { id: 'resp_calls', status: 'completed', output };
  const answer = {
    id: 'resp_answer',
    status: 'completed',
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }],
  };
  const gateway = {
    usesPreviousResponseId: false,
    async createResponse({ input }) {
      if (input[input.length - 1].type === 'message') return calling;
      for (let index = input.length - count; index < input.length; index += 1) {
        if (input[index].type !== 'function_call_output' || input[index].output !== 'ok') throw new Error('bench: a call output is missing');
      }
      return answer;
    },
  };
  return {
    run: async () => {
      const result = await runAgentLoop({ gateway, tools: turnTools, input: 'go' });
      if (result.reason !== 'completed' || result.toolCalls !== count) throw new Error(`bench: the turn ended ${result.reason} ${result.error ?? ''}`);
    },
  };
}

const noop = defineWorkerTool({
  name: 'noop',
  description: 'Does nothing.',
  schema: z.object({ index: z.number() }),
  executionMode: 'parallel',
  describeActivity: () => 'Nothing',
  execute: () => ({ content: 'ok' }),
});
const noopSequential = defineWorkerTool({ ...noop, name: 'noop_sequential', executionMode: 'sequential' });
const sleeper = defineWorkerTool({
  name: 'sleep_100ms',
  description: 'Waits 100 ms.',
  schema: z.object({}),
  executionMode: 'parallel',
  describeActivity: () => 'Sleeping',
  execute: () => new Promise((resolve) => setTimeout(() => resolve({ content: 'slept' }), 100)),
});

function calls(name, count) {
  return Array.from({ length: count }, (_, index) => ({
    type: 'function_call',
    call_id: `call_${index}`,
    name,
    arguments: name === 'sleep_100ms' ? '{}' : `{"index":${index}}`,
  }));
}

// --- measurements ---------------------------------------------------------------------------------------

const rows = [];
const scale = quick ? 0.1 : 1;

// Issue 14 §2: the runtime's overhead per tool call in a whole turn (`runAgentLoop`, in-process fake model: a response
// with N calls, then the answer), on 10 tools of 5–6 Zod fields with 150–190-byte valid arguments.
for (const callsPerResponse of [1, 10, 50]) {
  const turn = turnWorkload(callsPerResponse);
  const perCall = await measureAsync(turn.run, { runs: Math.ceil((callsPerResponse === 1 ? 3000 : 600) * scale), warmup: 300 });
  rows.push({
    name: `turn overhead per call, ${callsPerResponse} call${callsPerResponse === 1 ? '' : 's'} per response (turn time / calls)`,
    unit: 'µs',
    target: callsPerResponse === 10 ? 5.5 : undefined,
    median: perCall.median / callsPerResponse,
    p95: perCall.p95 / callsPerResponse,
    samples: perCall.samples,
  });
}

const tools = makeTools(100);
collectToolSchemas(tools); // the first turn converts the schemas; later turns reuse them
rows.push({
  name: 'collectToolSchemas, 100 tools, later turn',
  unit: 'µs',
  target: 3,
  ...measure(() => collectToolSchemas(tools), { batches: Math.ceil(300 * scale), batchSize: 20, warmup: 200 }),
});

if (validateToolArguments(writeFile, typicalArguments).ok !== true) throw new Error('bench fixture: the typical arguments must be valid');
const validationBatches = { batches: Math.ceil(300 * scale), batchSize: 200, warmup: 2000 };
// The floor: what any validator must do (JSON.parse, then one compiled check of the schema).
const floor = measure(() => writeFile.schema.safeParse(JSON.parse(typicalArguments)), validationBatches);
rows.push({ name: `floor: JSON.parse + Zod safeParse, ${Buffer.byteLength(typicalArguments)} bytes`, unit: 'µs', ...floor });
for (const [label, tool] of [
  ['', writeFile],
  [', strict tool', strictWriteFile],
]) {
  const result = measure(() => validateToolArguments(tool, typicalArguments), validationBatches);
  rows.push({
    name: `validateToolArguments, valid ${Buffer.byteLength(typicalArguments)}-byte string${label} (${(result.median / floor.median).toFixed(1)}× the floor)`,
    unit: 'µs',
    target: 10,
    ...result,
  });
}

const map = agentToolMap([noop, noopSequential, sleeper]);
const parallelCalls = calls('noop', 1000);
rows.push({
  name: 'dispatch overhead per call (1000 parallel no-op calls)',
  unit: 'µs',
  target: 20,
  ...(await measureAsync(() => dispatchToolCalls(parallelCalls, map), { runs: Math.ceil(60 * scale), warmup: 10, perRun: 1000 })),
});
const sequentialCalls = calls('noop_sequential', 1000);
rows.push({
  name: 'dispatch overhead per call (1000 sequential no-op calls)',
  unit: 'µs',
  target: 20,
  ...(await measureAsync(() => dispatchToolCalls(sequentialCalls, map), { runs: Math.ceil(60 * scale), warmup: 10, perRun: 1000 })),
});

const tenSleeps = calls('sleep_100ms', 10);
const wall = await measureAsync(() => dispatchToolCalls(tenSleeps, map), { runs: Math.ceil(20 * scale), warmup: 2 });
rows.push({
  name: '10 parallel calls of a 100 ms tool, wall time',
  unit: 'ms',
  target: 130,
  median: wall.median / 1000,
  p95: wall.p95 / 1000,
  samples: wall.samples,
});

// --- table ----------------------------------------------------------------------------------------------

const format = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const table = rows.map((row) => ({
  measurement: row.name,
  median: `${format(row.median)} ${row.unit}`,
  p95: `${format(row.p95)} ${row.unit}`,
  target: row.target === undefined ? '—' : `≤ ${row.target} ${row.unit}`,
  'median/target': row.target === undefined ? '—' : (row.median / row.target).toFixed(2),
  verdict: row.target === undefined ? '—' : row.median <= row.target ? 'ok' : 'OVER',
}));
console.log(`@core/runtime benchmark (node ${process.version}${quick ? ', --quick' : ''})`);
console.table(table);
process.exitCode = rows.every((row) => row.target === undefined || row.median <= row.target) ? 0 : 1;
