// Benchmark of @core/tools-mcp against the real server-everything. Runs the BUILT package (run `npx tsup`
// first): `node bench/run.mjs`. Prints median and p95, the target, and median / target (≤ 1 meets the target).
import { createRequire } from 'node:module';
import path from 'node:path';
import { createMcpToolSource } from '@core/tools-mcp';

const runs = process.argv.includes('--quick') ? 3 : 10;
const require = createRequire(import.meta.url);
const entry = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const servers = [{ name: 'everything', command: { kind: 'stdio', command: process.execPath, args: [entry, 'stdio'], cwd: process.cwd() } }];
const logger = { warn: (message) => console.warn(message) };

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

function row(name, { median, p95 }, targetMs) {
  console.log(`${name.padEnd(58)} median ${median.toFixed(3).padStart(9)} ms  p95 ${p95.toFixed(3).padStart(9)} ms  target ${String(targetMs).padStart(5)} ms  ratio ${(median / targetMs).toFixed(3)}`);
}

const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

// Cold: a new source each time (spawns the server, MCP handshake, tools/list twice: schemas and annotations).
const cold = [];
let toolCount = 0;
for (let run = 0; run < runs; run += 1) {
  const source = createMcpToolSource({ servers, logger });
  const started = process.hrtime.bigint();
  const { tools } = await source.tools();
  cold.push(ms(started));
  toolCount = tools.length;
  await source.close();
}
row(`cold listing (spawn + handshake + list ${toolCount} tools)`, summarise(cold), 2000);

// The same with the worker's whole environment (no `env -u …` wrapper), to see what scrubbing costs.
const inherited = [];
for (let run = 0; run < runs; run += 1) {
  const source = createMcpToolSource({ servers, logger, inheritEnv: true });
  const started = process.hrtime.bigint();
  await source.tools();
  inherited.push(ms(started));
  await source.close();
}
row('cold listing, inheritEnv: true (no scrubbing wrapper)', summarise(inherited), 2000);

const source = createMcpToolSource({ servers, logger });
await source.tools();
const cached = [];
const refreshed = [];
const calls = [];
for (let run = 0; run < runs * 10; run += 1) {
  let started = process.hrtime.bigint();
  await source.tools();
  cached.push(ms(started));
  if (run < runs) {
    started = process.hrtime.bigint();
    const { tools } = await source.tools({ refresh: true });
    refreshed.push(ms(started));
    const sum = tools.find((tool) => tool.name === 'get-sum');
    started = process.hrtime.bigint();
    await sum.execute({ a: 1, b: 2 }, { signal: new AbortController().signal, callId: 'bench', toolName: 'get-sum' });
    calls.push(ms(started));
  }
}
row('cached listing (tools() again)', summarise(cached), 1);
row('refresh on an open connection (tools({ refresh: true }))', summarise(refreshed), 50);
row('get-sum call on an open connection', summarise(calls), 20);
await source.close();
