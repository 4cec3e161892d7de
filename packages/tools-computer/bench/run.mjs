// Benchmark of @core/tools-computer. Runs the BUILT package (run `npx tsup` first): `node bench/run.mjs`.
// Prints median and p95 per measurement, the target, and median / target (≤ 1 meets the target).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createComputerTools } from '@core/tools-computer';

const runs = process.argv.includes('--quick') ? 5 : 20;

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

async function measure(operation) {
  await operation();
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    await operation();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return summarise(samples);
}

function row(name, { median, p95 }, targetMs) {
  console.log(`${name.padEnd(52)} median ${median.toFixed(2).padStart(8)} ms  p95 ${p95.toFixed(2).padStart(8)} ms  target ${String(targetMs).padStart(5)} ms  ratio ${(median / targetMs).toFixed(2)}`);
}

const home = mkdtempSync(path.join(os.tmpdir(), 'ankole-bench-'));
try {
  writeFileSync(path.join(home, 'notes.md'), Array.from({ length: 2000 }, (_, index) => `line ${index + 1} of the notes`).join('\n'));
  const tools = Object.fromEntries(createComputerTools({ home }).map((tool) => [tool.name, tool]));
  const call = (name, params) => tools[name].execute(tools[name].schema.parse(params), { signal: new AbortController().signal, callId: 'bench', toolName: name });

  // Raw spawn and the tool, interleaved (the machine's load drifts): the overhead is the median of the pairwise differences.
  const rawSpawn = () =>
    new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', 'true'], { cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
      child.on('error', reject);
      child.on('close', resolve);
    });
  const timed = async (operation) => {
    const started = process.hrtime.bigint();
    await operation();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  await rawSpawn();
  await call('command', { command: 'true' });
  const rawSamples = [];
  const commandSamples = [];
  for (let run = 0; run < runs * 3; run += 1) {
    rawSamples.push(await timed(rawSpawn));
    commandSamples.push(await timed(() => call('command', { command: 'true' })));
  }
  const raw = summarise(rawSamples);
  const command = summarise(commandSamples);
  row('raw spawn of `bash -c true` (baseline)', raw, 20);
  row('command `true` through the tool', command, 50);
  const overhead = summarise(commandSamples.map((sample, index) => sample - rawSamples[index]));
  console.log(`${'  overhead over the raw spawn (median of pairs)'.padEnd(52)} ${overhead.median.toFixed(2)} ms  (p95 ${overhead.p95.toFixed(2)} ms)`);
  row('read_file notes.md (2 000 lines)', await measure(() => call('read_file', { path: 'notes.md' })), 20);
  row('write_file 10 KB', await measure(() => call('write_file', { path: 'out/bench.txt', content: 'x'.repeat(10_000) })), 20);
  row('search_files /line 1\\d\\d of/ over notes.md', await measure(() => call('search_files', { regex: 'line 1\\d\\d of' })), 50);
  mkdirSync(path.join(home, 'many'));
  for (let index = 0; index < 500; index += 1) writeFileSync(path.join(home, 'many', `file-${index}.ts`), `export const value${index} = ${index};\n// TODO item ${index}\n`);
  row('search_files /TODO item 4\\d\\d/ over 500 small files', await measure(() => call('search_files', { regex: 'TODO item 4\\d\\d', path: 'many' })), 200);

  // mcporter through the command tool: the CLI starts, spawns server-everything over stdio, calls echo.
  const entry = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  mkdirSync(path.join(home, 'config'), { recursive: true });
  writeFileSync(path.join(home, 'config', 'mcporter.json'), JSON.stringify({ mcpServers: { everything: { command: 'node', args: [entry, 'stdio'] } }, imports: [] }));
  const mcporterTools = Object.fromEntries(createComputerTools({ home }).map((tool) => [tool.name, tool]));
  const samples = [];
  for (let run = 0; run < Math.min(runs, 5); run += 1) {
    const started = process.hrtime.bigint();
    const result = await mcporterTools.command.execute({ command: 'mcporter call everything.echo message=hi' }, { signal: new AbortController().signal, callId: 'bench', toolName: 'command' });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (!String(result.content).includes('Echo: hi')) throw new Error(`mcporter call failed: ${String(result.content)}`);
  }
  row('`mcporter call everything.echo` through command', summarise(samples), 3000);
} finally {
  rmSync(home, { recursive: true, force: true });
}
