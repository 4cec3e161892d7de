// Benchmark: how fast the `ankole` CLI starts. Not a test: it prints figures and the ratio to the targets.
// Runs the BUILT CLI (build first: `bash scripts/pnpm.sh exec turbo run build --filter=@core/cli...`):
//   node bench/cli-start.mjs [--runs N] [--quick]
//
// Whole-process figures, each command started fresh as a child process: wall time, CPU time (user + system)
// and peak RSS (from GNU time's `-o` report, /usr/bin/time; without it, wall time only). The commands run
// interleaved, round after round, after one warm-up round (the page cache is warm, as for a user), and the
// figures are medians with the range. A second pass counts the module files each command loads (a module
// hook), which does not depend on how busy the machine is.
//
//   node -e 0            a bare Node start, the yardstick
//   ankole --help        the command table only
//   ankole tools         builds the tool set of a turn (no control plane, no MCP, no web profile)
//   ankole run (demo)    a whole offline demo turn: OPENAI_API_KEY unset, the scripted model in-process
//   … (cold)             the same without the CLI's compile cache (a first run, or ANKOLE_COMPILE_CACHE=off)
//
// Targets (issue 14): `ankole tools` at most 2x a bare Node start (wall); a demo turn at most 0.4 s wall and
// 100 MiB peak RSS. Wall time on a loaded machine is inflated for every command alike; the CPU time and the
// ratios move less, and the module counts not at all.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const runsFlag = argv.indexOf('--runs');
const RUNS = runsFlag !== -1 ? Number(argv[runsFlag + 1]) : argv.includes('--quick') ? 3 : 9;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a positive whole number of rounds.');

// ANKOLE_BENCH_CLI: another build's entry file, to compare builds on the same machine at the same moment.
const CLI = path.resolve(process.env.ANKOLE_BENCH_CLI || path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist/ankole.cjs'));
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (bash scripts/pnpm.sh exec turbo run build --filter=@core/cli...).`);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const TARGET_TOOLS_RATIO = 2;
const TARGET_TURN_SECONDS = 0.4;
const TARGET_TURN_MIB = 100;

const scratch = await mkdtemp(path.join(tmpdir(), 'ankole-cli-start-'));
// A clean environment: no key (the offline demo), no control plane, no user config; homes under the scratch folder.
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: scratch,
  XDG_DATA_HOME: path.join(scratch, 'data'),
  XDG_CONFIG_HOME: path.join(scratch, 'config'),
  XDG_CACHE_HOME: path.join(scratch, 'cache'),
};

// The CLI keeps V8's compiled code of its files between runs (its compile cache, under XDG_CACHE_HOME): the
// warm-up round fills it, as a user's first run does. The `(cold)` rows turn it off (ANKOLE_COMPILE_CACHE=off),
// as on a first run ever or after an upgrade.
const COLD = { ANKOLE_COMPILE_CACHE: 'off' };
const COMMANDS = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'ankole --help', args: [CLI, '--help'] },
  { label: 'ankole tools', args: [CLI, 'tools'], expect: 'todo_write' },
  { label: 'ankole run (demo turn)', args: [CLI, 'run', '--demo'], expect: 'ankole-demo' },
  { label: 'ankole tools (cold)', args: [CLI, 'tools'], expect: 'todo_write', env: COLD },
  { label: 'ankole run (demo turn, cold)', args: [CLI, 'run', '--demo'], expect: 'ankole-demo', env: COLD },
];

/** Runs `node ...args` once; resolves with its wall time, CPU time and peak RSS (bytes), or rejects when it fails. */
async function measure(command, extraNodeArgs = []) {
  const report = path.join(scratch, 'time.txt');
  const nodeArgs = [...extraNodeArgs, ...command.args];
  const [file, args] = TIME === undefined ? [process.execPath, nodeArgs] : [TIME, ['-o', report, '-f', '%e %U %S %M', process.execPath, ...nodeArgs]];
  const started = process.hrtime.bigint();
  const child = spawn(file, args, { env: { ...env, ...command.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${command.label} exited with ${code}:\n${stderr}`);
  if (command.expect !== undefined && !`${stdout}${stderr}`.includes(command.expect)) {
    throw new Error(`${command.label} did not print "${command.expect}":\n${stdout}\n${stderr}`);
  }
  if (TIME === undefined) return { wallSeconds, cpuSeconds: NaN, rssBytes: NaN };
  const [, user, system, maxKb] = (await readFile(report, 'utf8')).trim().split('\n').at(-1).split(' ').map(Number);
  return { wallSeconds, cpuSeconds: user + system, rssBytes: maxKb * 1024 };
}

// A module hook (loaded with --import): at exit, the number of module files loaded (ESM and CommonJS), to stderr.
const counter = path.join(scratch, 'count-modules.mjs');
await writeFile(
  counter,
  `import { register, Module } from 'node:module';
const files = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => files.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent('let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { if (url.startsWith("file:")) port.postMessage(url); return next(url, context); }'), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try { const file = Module._resolveFilename(request, parent, isMain); if (file.startsWith('/')) files.add('file://' + file); } catch {}
  return loaded;
};
process.on('exit', () => process.stderr.write('\\nmodules loaded: ' + files.size + '\\n'));
`,
);

async function countModules(command) {
  const child = spawn(process.execPath, ['--import', counter, ...command.args], { env: { ...env, ...command.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  const match = /modules loaded: (\d+)/.exec(stderr);
  return match === null ? NaN : Number(match[1]);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const range = (values, format) => `${format(Math.min(...values))}–${format(Math.max(...values))}`;
const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`;
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

try {
  console.log(`ankole CLI start: ${RUNS} rounds (after one warm-up), Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}`);
  if (TIME === undefined) console.log('(/usr/bin/time not found: wall time only, no CPU time or peak RSS)');
  const samples = new Map(COMMANDS.map((command) => [command.label, []]));
  for (const command of COMMANDS) await measure(command); // warm-up (also checks every command works)
  for (let round = 0; round < RUNS; round += 1) {
    for (const command of COMMANDS) samples.get(command.label).push(await measure(command));
  }
  const modules = new Map();
  for (const command of COMMANDS) modules.set(command.label, await countModules(command));

  const rows = COMMANDS.map((command) => {
    const runs = samples.get(command.label);
    const walls = runs.map((run) => run.wallSeconds);
    const cpus = runs.map((run) => run.cpuSeconds);
    const rss = runs.map((run) => run.rssBytes);
    return { label: command.label, wall: median(walls), walls, cpu: median(cpus), cpus, rss: median(rss), rsses: rss, modules: modules.get(command.label) };
  });
  const width = Math.max(...rows.map((row) => row.label.length));
  console.log(`\n${'command'.padEnd(width)}  wall (median, range)        CPU (median)  peak RSS (median)  modules`);
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(width)}  ${`${ms(row.wall)} (${range(row.walls, ms)})`.padEnd(27)} ${ms(row.cpu).padStart(12)}  ${mib(row.rss).padStart(17)}  ${String(row.modules).padStart(7)}`,
    );
  }
  const [bare, , tools, turn, coldTools, coldTurn] = rows;
  const verdict = (ok) => (ok ? 'meets the target' : 'misses the target');
  const toolsRatio = tools.wall / bare.wall;
  console.log('\nAgainst the targets:');
  console.log(`  ankole tools: ${toolsRatio.toFixed(2)}x a bare Node start (wall; target <= ${TARGET_TOOLS_RATIO}x): ${verdict(toolsRatio <= TARGET_TOOLS_RATIO)}; CPU ${(tools.cpu / bare.cpu).toFixed(2)}x`);
  console.log(`  demo turn: ${ms(turn.wall)} wall, ${(turn.wall / TARGET_TURN_SECONDS).toFixed(2)}x the 0.4 s target: ${verdict(turn.wall <= TARGET_TURN_SECONDS)}`);
  console.log(`  without the compile cache: ankole tools ${(coldTools.wall / bare.wall).toFixed(2)}x a bare Node start, demo turn ${ms(coldTurn.wall)}`);
  if (TIME !== undefined) {
    console.log(`  demo turn: ${mib(turn.rss)} peak, ${(turn.rss / (TARGET_TURN_MIB * 2 ** 20)).toFixed(2)}x the 100 MiB target: ${verdict(turn.rss <= TARGET_TURN_MIB * 2 ** 20)}`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
