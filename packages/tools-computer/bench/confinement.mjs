// Per-call cost of the file tools' confined path resolution. Runs the BUILT package (run `npx tsup` first):
// `node bench/confinement.mjs`. Each tool is called in batches on a small file 4 folders deep; prints the median
// µs per call over the batches and the ratio to the target (≤ 1 meets it).
// `--baseline /path/to/dist/index.js` also loads another build (e.g. an older commit built elsewhere) and runs
// its batches interleaved with this build's (the machine's load drifts), printing both and new / baseline.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createComputerTools } from '@core/tools-computer';

const quick = process.argv.includes('--quick');
const batches = quick ? 9 : 25;
const batchCalls = 40;
const baselineFlag = process.argv.indexOf('--baseline');
const baseline = baselineFlag === -1 ? undefined : await import(pathToFileURL(path.resolve(process.argv[baselineFlag + 1])).href);

function setUp(create) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'ankole-bench-confine-'));
  mkdirSync(path.join(home, 'a/b/c/d'), { recursive: true });
  writeFileSync(path.join(home, 'a/b/c/d/notes.md'), 'one\ntwo\nthree\n');
  for (let index = 0; index < 20; index += 1) writeFileSync(path.join(home, 'a/b/c/d', `file-${index}.txt`), `file ${index}\n`);
  const tools = Object.fromEntries(create({ home }).map((tool) => [tool.name, tool]));
  const call = async (name, params) => {
    const result = await tools[name].execute(tools[name].schema.parse(params), { signal: new AbortController().signal, callId: 'bench', toolName: name });
    if (result.isError) throw new Error(`${name}: ${result.content}`);
  };
  let edits = 0;
  const cases = {
    read: () => call('read_file', { path: 'a/b/c/d/notes.md' }),
    write: () => call('write_file', { path: 'a/b/c/d/out.txt', content: 'x\n' }),
    edit: () => ((edits += 1) % 2 === 1 ? call('edit_file', { path: 'a/b/c/d/notes.md', old_string: 'two', new_string: 'TWO' }) : call('edit_file', { path: 'a/b/c/d/notes.md', old_string: 'TWO', new_string: 'two' })),
    list: () => call('list_files', { path: 'a/b/c/d' }),
    search: () => call('search_files', { regex: 'three', path: 'a' }),
  };
  return { home, cases };
}

async function batch(operation) {
  const started = process.hrtime.bigint();
  for (let run = 0; run < batchCalls; run += 1) await operation();
  return Number(process.hrtime.bigint() - started) / 1e3 / batchCalls;
}

const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
const rows = [
  ['read', 'read_file a/b/c/d/notes.md', 300],
  ['write', 'write_file a/b/c/d/out.txt (exists)', 400],
  ['edit', 'edit_file a/b/c/d/notes.md', 400],
  ['list', 'list_files a/b/c/d (21 entries)', 500],
  ['search', 'search_files /three/ in a (21 files)', 3000],
];
const current = setUp(createComputerTools);
const old = baseline === undefined ? undefined : setUp(baseline.createComputerTools);
try {
  console.log(`${batches} batches of ${batchCalls} calls${old === undefined ? '' : ', interleaved with the baseline'}; load average ${os.loadavg()[0].toFixed(1)}`);
  for (const [key, name, targetUs] of rows) {
    const samples = [];
    const baseSamples = [];
    await batch(current.cases[key]);
    if (old !== undefined) await batch(old.cases[key]);
    for (let index = 0; index < batches; index += 1) {
      samples.push(await batch(current.cases[key]));
      if (old !== undefined) baseSamples.push(await batch(old.cases[key]));
    }
    const perCall = median(samples);
    const versus = old === undefined ? '' : `  baseline ${median(baseSamples).toFixed(1).padStart(8)} µs  new/baseline ${(perCall / median(baseSamples)).toFixed(2)}`;
    console.log(`${name.padEnd(40)} ${perCall.toFixed(1).padStart(8)} µs/call  target ${String(targetUs).padStart(5)} µs  ratio ${(perCall / targetUs).toFixed(2)}${versus}`);
  }
} finally {
  rmSync(current.home, { recursive: true, force: true });
  if (old !== undefined) rmSync(old.home, { recursive: true, force: true });
}
