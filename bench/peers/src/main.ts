// The peer benchmark: our runtime against @openai/agents, ai and pi-agent-core on one workload, in one process.
// Usage: node dist/main.js [--only ours,pi,ai,agents] [--quick] [--rounds N] [--cold N] [--no-cold]
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Adapter } from './adapter.js';
import { selectFrameworks, type Framework } from './frameworks.js';
import { formatNumber, formatRatio, formatSpread, spread, type Spread } from './stats.js';
import { CALL_COUNTS, MANY_TOOL_SPECS, TOOL_SPECS, VALIDATION_ARGUMENTS } from './workload.js';

/** The targets for ours. */
const TARGET_PER_CALL_AT_10 = 5.5;
const TARGET_COLLECTION = 3;
/** The response size of the cold turns. */
const COLD_CALLS = 10;
const COLD_TURNS = 10;

interface Options {
  only: string | undefined;
  rounds: number;
  warmupRounds: number;
  batch: number;
  coldProcesses: number;
  coldChild: number | undefined;
  warm: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    if (index === -1) return undefined;
    const next = argv[index + 1];
    if (next === undefined || next.startsWith('--')) throw new Error(`${name} needs a value`);
    return next;
  };
  const integer = (name: string, fallback: number): number => {
    const text = value(name);
    if (text === undefined) return fallback;
    const parsed = Number(text);
    if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${text}"`);
    return parsed;
  };
  const quick = argv.includes('--quick');
  const coldChild = value('--cold-child');
  const only = value('--only');
  // Ours and pi take microseconds a turn: without ai and @openai/agents, many more rounds fit in the same time.
  const fastOnly = only !== undefined && selectFrameworks(only).every((framework) => framework.key === 'ours' || framework.key === 'pi');
  return {
    only,
    rounds: integer('--rounds', (quick ? 12 : 60) * (fastOnly ? 8 : 1)),
    warmupRounds: integer('--warmup-rounds', quick ? 4 : 12),
    batch: integer('--batch', 5),
    coldProcesses: argv.includes('--no-cold') ? 0 : integer('--cold', quick ? 2 : 7),
    coldChild: coldChild === undefined ? undefined : Number(coldChild),
    warm: !argv.includes('--cold-only'),
  };
}

const microseconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1000;

/**
 * Two clocks: wall time, and the CPU time of the process (user + system, from getrusage). On a shared machine
 * under load a long turn is often preempted, which wall time counts and CPU time does not; CPU time also counts
 * the work of V8's helper threads (concurrent GC), which is part of a framework's cost.
 */
export type Clock = 'cpu' | 'wall';
interface Timing {
  wall: number;
  cpu: number;
}

async function timeTurn(adapter: Adapter, calls: number): Promise<Timing> {
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  await adapter.runTurn(calls);
  const wall = microseconds(started);
  const cpu = process.cpuUsage(cpuStarted);
  return { wall, cpu: cpu.user + cpu.system };
}

/** Mean µs of one operation over a batch of `count` (awaited when it returns a promise). */
async function timeBatch(operation: () => unknown, count: number): Promise<Timing> {
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index += 1) {
    const result = operation();
    if (result instanceof Promise) await result;
  }
  const wall = microseconds(started);
  const cpu = process.cpuUsage(cpuStarted);
  return { wall: wall / count, cpu: (cpu.user + cpu.system) / count };
}

/** `items` rotated left by `by`, so each framework goes first in turn. */
function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

async function loadAll(frameworks: Framework[]): Promise<Adapter[]> {
  const adapters: Adapter[] = [];
  for (const framework of frameworks) adapters.push(await framework.load());
  return adapters;
}

// --- warm ----------------------------------------------------------------------------------------------

interface WarmSamples {
  turns: Map<number, Timing[]>;
  collect: Timing[];
  collectFresh: Timing[];
  validate: Timing[];
}

async function measureWarm(adapters: Adapter[], options: Options): Promise<Map<string, WarmSamples>> {
  const sizes = [0, ...CALL_COUNTS];
  const samples = new Map<string, WarmSamples>();
  for (const adapter of adapters) samples.set(adapter.name, { turns: new Map(sizes.map((size) => [size, []])), collect: [], collectFresh: [], validate: [] });
  const totalRounds = options.warmupRounds + options.rounds;
  for (let round = 0; round < totalRounds; round += 1) {
    const record = round >= options.warmupRounds;
    for (const adapter of rotate(adapters, round)) {
      const own = samples.get(adapter.name) as WarmSamples;
      try {
        for (const size of sizes) {
          for (let index = 0; index < options.batch; index += 1) {
            const time = await timeTurn(adapter, size);
            if (record) own.turns.get(size)?.push(time);
          }
        }
        const collect = await timeBatch(adapter.collectTools, 20);
        const validate = await timeBatch(adapter.validateArguments, 100);
        const fresh = adapter.collectToolsFromNewArray === undefined ? undefined : await timeBatch(adapter.collectToolsFromNewArray, 20);
        if (record) {
          if (fresh !== undefined) own.collectFresh.push(fresh);
          own.collect.push(collect);
          own.validate.push(validate);
        }
      } finally {
        adapter.afterBatch?.();
      }
    }
  }
  return samples;
}

interface WarmFigures {
  name: string;
  empty: Spread;
  perCall: Map<number, Spread>;
  /** (median turn at 50 − median turn at 1) / 49: the cost of one more call, with no per-step cost in it. */
  marginal: number;
  collect: Spread;
  collectFresh: Spread;
  validate: Spread;
}

function warmFigures(name: string, own: WarmSamples, clock: Clock): WarmFigures {
  const times = (size: number) => (own.turns.get(size) ?? []).map((timing) => timing[clock]);
  const empty = spread(times(0));
  const perCall = new Map<number, Spread>();
  for (const size of CALL_COUNTS) perCall.set(size, spread(times(size).map((time) => (time - empty.median) / size)));
  const first = spread(times(1)).median;
  const last = spread(times(50)).median;
  return {
    name,
    empty,
    perCall,
    marginal: (last - first) / 49,
    collect: spread(own.collect.map((timing) => timing[clock])),
    collectFresh: spread(own.collectFresh.map((timing) => timing[clock])),
    validate: spread(own.validate.map((timing) => timing[clock])),
  };
}

// --- cold ----------------------------------------------------------------------------------------------

interface ColdFigures {
  /** ms (wall) to import the framework's adapter module and build its tools (10 and 100). */
  loadMs: number;
  /** µs of the first turn with 10 calls. */
  first: Timing;
  /** µs, median of turns 2–10. */
  next: Timing;
}

/** In a fresh process: load each framework (order rotated by `seed`), then turns interleaved. */
async function coldChild(frameworks: Framework[], seed: number): Promise<void> {
  const order = rotate(frameworks, seed);
  const adapters: Adapter[] = [];
  const loadMs: number[] = [];
  for (const framework of order) {
    const started = process.hrtime.bigint();
    adapters.push(await framework.load());
    loadMs.push(microseconds(started) / 1000);
  }
  const turns: Timing[][] = adapters.map(() => []);
  for (let turn = 0; turn < COLD_TURNS; turn += 1) {
    for (const [index, adapter] of adapters.entries()) {
      try {
        turns[index]?.push(await timeTurn(adapter, COLD_CALLS));
      } finally {
        adapter.afterBatch?.();
      }
    }
  }
  const result: Record<string, ColdFigures> = {};
  for (const [index, adapter] of adapters.entries()) {
    const own = turns[index] as Timing[];
    const next = (clock: Clock) => spread(own.slice(1).map((timing) => timing[clock])).median;
    result[adapter.name] = { loadMs: loadMs[index] as number, first: own[0] as Timing, next: { wall: next('wall'), cpu: next('cpu') } };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function measureCold(frameworks: Framework[], options: Options): Map<string, ColdFigures[]> {
  const script = fileURLToPath(import.meta.url);
  const byName = new Map<string, ColdFigures[]>();
  for (let process_ = 0; process_ < options.coldProcesses; process_ += 1) {
    const args = [script, '--cold-child', String(process_), '--only', frameworks.map((framework) => framework.key).join(',')];
    let output: string;
    try {
      output = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    } catch (error) {
      // On the shared tree another build may be replacing a dist/ folder at that moment: one retry, then give up.
      console.error(`cold process ${process_} failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); retrying once in 10 s`);
      execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
      output = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    }
    const lastLine = output.trim().split('\n').at(-1) ?? '{}';
    for (const [name, figures] of Object.entries(JSON.parse(lastLine) as Record<string, ColdFigures>)) {
      const list = byName.get(name) ?? [];
      list.push(figures);
      byName.set(name, list);
    }
  }
  return byName;
}

// --- report --------------------------------------------------------------------------------------------

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const CLOCK_TITLE: Record<Clock, string> = { cpu: 'CPU time', wall: 'wall time' };

function printWarm(figures: WarmFigures[], clock: Clock, options: Options): void {
  const ours = figures.find((entry) => entry.name === 'ours');
  const ratio = (value: number, reference: number | undefined) => (reference === undefined ? 'n/a' : formatRatio(value / reference));
  console.log(
    `\n## Warm, ${CLOCK_TITLE[clock]}: per-call overhead, µs per call, median [p25–p75] ` +
      `(${options.rounds} rounds × ${options.batch} turns per size, after ${options.warmupRounds} warm-up rounds)`,
  );
  console.log('per call = (turn time − median empty turn) / calls; marginal = (median turn at 50 − median turn at 1) / 49\n');
  console.log(
    table(
      ['framework', 'empty turn µs', ...CALL_COUNTS.map((size) => `${size} call${size === 1 ? '' : 's'}/response`), 'marginal', '× ours at 10'],
      figures.map((entry) => [
        entry.name,
        formatSpread(entry.empty),
        ...CALL_COUNTS.map((size) => formatSpread(entry.perCall.get(size) as Spread)),
        formatNumber(entry.marginal),
        ratio((entry.perCall.get(10) as Spread).median, ours === undefined ? undefined : (ours.perCall.get(10) as Spread).median),
      ]),
    ),
  );
  console.log(
    `\n## Warm, ${CLOCK_TITLE[clock]}: collecting ${MANY_TOOL_SPECS.length} tools on a later turn, and validating one valid ` +
      `${Buffer.byteLength(VALIDATION_ARGUMENTS)}-byte argument string, µs, median [p25–p75]\n`,
  );
  console.log(
    table(
      ['framework', `collect ${MANY_TOOL_SPECS.length} tools, same array`, '× ours', 'collect, new array', '× ours', 'validate 1 call', '× ours'],
      figures.map((entry) => [
        entry.name,
        formatSpread(entry.collect),
        ratio(entry.collect.median, ours?.collect.median),
        formatSpread(entry.collectFresh),
        ratio(entry.collectFresh.median, ours?.collectFresh.median),
        formatSpread(entry.validate),
        ratio(entry.validate.median, ours?.validate.median),
      ]),
    ),
  );
}

function printTargets(byClock: Record<Clock, WarmFigures[]>): void {
  const ours = (clock: Clock) => byClock[clock].find((entry) => entry.name === 'ours');
  const cpu = ours('cpu');
  const wall = ours('wall');
  if (cpu === undefined || wall === undefined) return;
  const perCall = (entry: WarmFigures) => (entry.perCall.get(10) as Spread).median;
  console.log('\n## Ours against the targets of issue 14 (warm medians)\n');
  console.log(
    table(
      ['measurement', 'ours, CPU time', 'ours, wall time', 'target', 'CPU / target', 'wall / target'],
      [
        [
          'per-call overhead at 10 calls/response',
          `${formatNumber(perCall(cpu))} µs`,
          `${formatNumber(perCall(wall))} µs`,
          `≤ ${TARGET_PER_CALL_AT_10} µs`,
          formatRatio(perCall(cpu) / TARGET_PER_CALL_AT_10),
          formatRatio(perCall(wall) / TARGET_PER_CALL_AT_10),
        ],
        [
          `collection of ${MANY_TOOL_SPECS.length} tools, later turn, same array`,
          `${formatNumber(cpu.collect.median)} µs`,
          `${formatNumber(wall.collect.median)} µs`,
          `≤ ${TARGET_COLLECTION} µs`,
          formatRatio(cpu.collect.median / TARGET_COLLECTION),
          formatRatio(wall.collect.median / TARGET_COLLECTION),
        ],
        [
          `collection of ${MANY_TOOL_SPECS.length} tools, later turn, new array`,
          `${formatNumber(cpu.collectFresh.median)} µs`,
          `${formatNumber(wall.collectFresh.median)} µs`,
          `≤ ${TARGET_COLLECTION} µs`,
          formatRatio(cpu.collectFresh.median / TARGET_COLLECTION),
          formatRatio(wall.collectFresh.median / TARGET_COLLECTION),
        ],
      ],
    ),
  );
  const peers = byClock.cpu.filter((entry) => entry.name !== 'ours');
  if (peers.length > 0) {
    console.log(
      `\nPeers at 10 calls/response (CPU time) against the per-call target (${TARGET_PER_CALL_AT_10} µs): ` +
        peers.map((entry) => `${entry.name} ${formatRatio(perCall(entry) / TARGET_PER_CALL_AT_10)}`).join(', '),
    );
  }
}

function printCold(cold: Map<string, ColdFigures[]>, processes: number): void {
  console.log(
    `\n## Cold: ${processes} fresh processes, frameworks loaded and run interleaved (order rotated per process), ` +
      `${COLD_CALLS} calls/response, median [p25–p75] over processes\n`,
  );
  const oursList = cold.get('ours');
  const oursFirst = (clock: Clock) => (oursList === undefined ? undefined : spread(oursList.map((entry) => entry.first[clock])).median);
  const rows: string[][] = [];
  for (const [name, list] of cold.entries()) {
    const first = (clock: Clock) => spread(list.map((entry) => entry.first[clock]));
    const reference = oursFirst('cpu');
    rows.push([
      name,
      formatSpread(spread(list.map((entry) => entry.loadMs))),
      formatSpread(first('cpu')),
      formatSpread(first('wall')),
      reference === undefined ? 'n/a' : formatRatio(first('cpu').median / reference),
      formatSpread(spread(list.map((entry) => entry.next.cpu))),
      formatSpread(spread(list.map((entry) => entry.next.wall))),
    ]);
  }
  console.log(
    table(
      ['framework', 'load + setup ms (wall)', 'first turn µs (CPU)', 'first turn µs (wall)', '× ours (CPU)', `turns 2–${COLD_TURNS} µs (CPU)`, `turns 2–${COLD_TURNS} µs (wall)`],
      rows,
    ),
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const frameworks = selectFrameworks(options.only);
  if (options.coldChild !== undefined) {
    await coldChild(frameworks, options.coldChild);
    return;
  }
  const loadBefore = loadavg();
  console.log(`# Peer benchmark: ${frameworks.map((framework) => framework.key).join(', ')}`);
  console.log(
    `Node ${process.version}, ${cpus().length} cores, load average ${loadBefore.map((value) => value.toFixed(1)).join(' ')}; ` +
      `${TOOL_SPECS.length} tools of 5–6 fields, in-process fake models`,
  );
  if (options.warm) {
    const adapters = await loadAll(frameworks);
    const warm = await measureWarm(adapters, options);
    const byClock = {} as Record<Clock, WarmFigures[]>;
    for (const clock of ['cpu', 'wall'] as const) {
      byClock[clock] = adapters.map((adapter) => warmFigures(adapter.name, warm.get(adapter.name) as WarmSamples, clock));
      printWarm(byClock[clock], clock, options);
    }
    printTargets(byClock);
  }
  if (options.coldProcesses > 0) printCold(measureCold(frameworks, options), options.coldProcesses);
  console.log(`\nload average after: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
