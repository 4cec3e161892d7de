// Benchmark of the repair ladder: the repair rate over the own corpus (development and held-out parts, and the
// shared dev corpus ../shared/reference/malformed-args.dev.jsonl when it is there), and the median time
// `validateToolArguments` takes on valid and on malformed arguments. Runs the BUILT package (run `npx tsup` first):
// `node bench/repair.mjs` (`--quick` for fewer samples). Prints the figures and median / target for the timings.
import { register } from 'node:module';
import { defineWorkerTool, validateToolArguments } from '@core/runtime';

register('./typescript-hooks.mjs', import.meta.url);
const { corpusPart, formatScores, ownCorpus, readSharedCorpus, scoreCorpus, sharedCorpusFile } = await import('../src/__fixtures__/malformed-args-corpus.ts');

const quick = process.argv.includes('--quick');
const permissive = defineWorkerTool({
  name: 'corpus_tool',
  description: 'Accepts any object.',
  jsonSchema: { type: 'object' },
  describeActivity: () => 'corpus',
  execute: () => ({ content: 'ok' }),
});
const read = (input) => validateToolArguments(permissive, input);

// --- repair rate ------------------------------------------------------------------------------------------

const own = ownCorpus();
const columns = [
  {
    name: 'dev',
    score: scoreCorpus(
      own.filter((entry) => corpusPart(entry.id) === 'dev'),
      read,
    ),
  },
  {
    name: 'held-out',
    score: scoreCorpus(
      own.filter((entry) => corpusPart(entry.id) === 'held-out'),
      read,
    ),
  },
];
const shared = readSharedCorpus();
if (shared === undefined) console.log(`shared corpus ${sharedCorpusFile} is absent: its column is left out.`);
else columns.push({ name: 'shared', score: scoreCorpus(shared, read) });
console.log(formatScores(`@core/runtime repair ladder (node ${process.version}${quick ? ', --quick' : ''}): cases read as expected`, columns));

// --- validation time --------------------------------------------------------------------------------------

/** Median of per-input medians, in µs: every input is validated `rounds` times in batches. */
function medianTime(inputs, rounds) {
  const perInput = inputs.map((input) => {
    for (let index = 0; index < 20; index += 1) read(input);
    const samples = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < 10; index += 1) read(input);
      samples.push(Number(process.hrtime.bigint() - started) / 1000 / 10);
    }
    return median(samples);
  });
  return { median: median(perInput), p95: quantile(perInput, 0.95), max: Math.max(...perInput), inputs: inputs.length };
}

function median(values) {
  return quantile(values, 0.5);
}

function quantile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const isValidObject = (text) => {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};
// Inputs up to 4 KiB (the size of ordinary tool calls); the large stressors are timed on their own below.
const small = own.filter((entry) => entry.input.length <= 4096);
const valid = small.filter((entry) => isValidObject(entry.input)).map((entry) => entry.input);
const malformed = small.filter((entry) => !isValidObject(entry.input) && entry.expected !== null).map((entry) => entry.input);
const rounds = quick ? 5 : 30;
const rows = [
  { name: `valid arguments (${valid.length} own-corpus controls)`, target: 10, ...medianTime(valid, rounds) },
  { name: `malformed arguments repaired (${malformed.length} own-corpus cases ≤ 4 KiB)`, target: 100, ...medianTime(malformed, rounds) },
];
const large = own.filter((entry) => entry.input.length > 4096).map((entry) => entry.input);
const largest = { name: `large stressors (${large.length} cases, 5 KB – 1.1 MB)`, target: 50_000, ...medianTime(large, quick ? 2 : 5) };
rows.push(largest);

const format = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
console.log('validateToolArguments time per call (median of per-input medians):');
console.table(
  rows.map((row) => ({
    measurement: row.name,
    median: `${format(row.median)} µs`,
    p95: `${format(row.p95)} µs`,
    max: `${format(row.max)} µs`,
    target: `≤ ${row.target} µs`,
    'median/target': (row.median / row.target).toFixed(2),
    verdict: row.median <= row.target ? 'ok' : 'OVER',
  })),
);
const rateOk = columns.every((column) => column.score.matched / column.score.total >= 0.95);
process.exitCode = rateOk && rows.every((row) => row.median <= row.target) ? 0 : 1;
