// Benchmark of the runtime's hot paths against the targets of issue 2 §5.
// Runs the BUILT package (run `npx tsup` first): `node bench/run.mjs` (or `pnpm bench`).
// Prints one row per measurement: median and p95, the target, and median / target (≤ 1 meets the target).
import { agentToolMap, collectToolSchemas, defineWorkerTool, dispatchToolCalls, validateToolArguments } from '@core/runtime';
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

const tools = makeTools(100);
collectToolSchemas(tools); // the first turn converts the schemas; later turns reuse them
rows.push({
  name: 'collectToolSchemas, 100 tools, later turn',
  unit: 'µs',
  target: 50,
  ...measure(() => collectToolSchemas(tools), { batches: Math.ceil(300 * scale), batchSize: 20, warmup: 200 }),
});

if (validateToolArguments(writeFile, typicalArguments).ok !== true) throw new Error('bench fixture: the typical arguments must be valid');
rows.push({
  name: `validateToolArguments, valid ${Buffer.byteLength(typicalArguments)}-byte string`,
  unit: 'µs',
  target: 10,
  ...measure(() => validateToolArguments(writeFile, typicalArguments), { batches: Math.ceil(300 * scale), batchSize: 200, warmup: 2000 }),
});

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
rows.push({ name: '10 parallel calls of a 100 ms tool, wall time', unit: 'ms', target: 130, median: wall.median / 1000, p95: wall.p95 / 1000, samples: wall.samples });

// --- table ----------------------------------------------------------------------------------------------

const format = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const table = rows.map((row) => ({
  measurement: row.name,
  median: `${format(row.median)} ${row.unit}`,
  p95: `${format(row.p95)} ${row.unit}`,
  target: `≤ ${row.target} ${row.unit}`,
  'median/target': (row.median / row.target).toFixed(2),
  verdict: row.median <= row.target ? 'ok' : 'OVER',
}));
console.log(`@core/runtime benchmark (node ${process.version}${quick ? ', --quick' : ''})`);
console.table(table);
process.exitCode = rows.every((row) => row.median <= row.target) ? 0 : 1;
