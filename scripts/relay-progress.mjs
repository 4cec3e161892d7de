// Runs a long command (the demo's first install and build) with its whole output kept in a log file, and shows its
// progress on stderr without flooding it: pnpm's "Progress: resolved …" counts (at most one line every --every-ms),
// the number of packages to add, one line per turbo task (when its output arrives: with --log-order=grouped, when it
// finished), and a "still working" line when nothing was shown for twice --every-ms. On a terminal (stderr a TTY, or
// --tty) the progress is one line redrawn in place and cleared at the end. Exits with the command's exit code; the
// caller prints the log when that is not 0.
//
//   node scripts/relay-progress.mjs --log FILE [--every-ms 5000] [--tty | --no-tty] -- COMMAND [ARGS…]
//
// Needs nothing but Node.js: it runs before the workspace's packages are installed.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';

const separator = process.argv.indexOf('--');
const { values } = parseArgs({
  args: process.argv.slice(2, separator === -1 ? undefined : separator),
  options: { log: { type: 'string' }, 'every-ms': { type: 'string', default: '5000' }, tty: { type: 'boolean' }, 'no-tty': { type: 'boolean' } },
});
const command = separator === -1 ? [] : process.argv.slice(separator + 1);
if (values.log === undefined || command.length === 0) {
  process.stderr.write('relay-progress: give --log FILE and the command after --.\n');
  process.exit(2);
}
const everyMs = Number(values['every-ms']);
const tty = values.tty === true || (values['no-tty'] !== true && process.stderr.isTTY === true);
const started = Date.now();
const log = createWriteStream(values.log, { flags: 'a' });

// A line of progress: text, and whether it always shows (a milestone) or only every `everyMs` (a count that moves).
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const seenTasks = new Set();
let taskTotal;
function progressOf(raw) {
  const line = raw.replace(ANSI, '').trim();
  const counts = /^Progress: resolved (\d+), reused (\d+), downloaded (\d+), added (\d+)/.exec(line);
  if (counts !== null) return { text: `resolved ${counts[1]} packages, ${counts[2]} from the store, ${counts[3]} downloaded, ${counts[4]} added`, milestone: false };
  const adding = /^Packages: \+(\d+)/.exec(line);
  if (adding !== null) return { text: `adding ${adding[1]} packages`, milestone: true };
  const script = /(?:^|\/)([^/\s]+) (preinstall|install|postinstall)\$ /.exec(line);
  if (script !== null) return { text: `running the ${script[2]} script of ${script[1]}`, milestone: false };
  const running = /^• Running \S+ in (\d+) packages?/.exec(line);
  if (running !== null) {
    taskTotal = Number(running[1]);
    return undefined;
  }
  const task = /^(\S+?):([\w-]+): /.exec(line);
  if (task !== null && !seenTasks.has(task[0])) {
    seenTasks.add(task[0]);
    const count = taskTotal === undefined ? `${seenTasks.size}` : `${seenTasks.size}/${taskTotal}`;
    return { text: `${task[1]}: ${task[2]} finished (${count})`, milestone: true };
  }
  return undefined;
}

const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
let latest; // the newest progress text
let printed; // the last progress text shown
let shownAt = Number.NEGATIVE_INFINITY;
let drawn = false;
function show(text) {
  shownAt = Date.now();
  const line = `      [${seconds()}] ${text}`;
  if (tty) {
    const width = process.stderr.columns ?? 100;
    process.stderr.write(`\r\u001b[K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    drawn = true;
  } else {
    process.stderr.write(`${line}\n`);
  }
}
function showLatest() {
  printed = latest;
  show(latest);
}
function offer(raw) {
  const progress = progressOf(raw);
  if (progress === undefined) return;
  latest = progress.text;
  // A terminal line costs nothing to redraw; a log line is printed for milestones, else at most every `everyMs`.
  if (progress.milestone || Date.now() - shownAt >= (tty ? 100 : everyMs)) showLatest();
}
// Between lines: the newest count not shown yet; else, on a terminal, the same line with its time, and in a log a
// "still working" line when nothing was printed for twice `everyMs`.
const beat = setInterval(
  () => {
    if (latest !== undefined && latest !== printed) showLatest();
    else if (tty) show(latest ?? 'working');
    else if (Date.now() - shownAt >= 2 * everyMs) show(`still working${latest === undefined ? '' : ` (last: ${latest})`}`);
  },
  tty ? Math.min(everyMs, 1000) : everyMs,
);

let finished = false;
function finish(code) {
  if (finished) return;
  finished = true;
  clearInterval(beat);
  if (drawn) process.stderr.write('\r\u001b[K');
  log.end(() => process.exit(code));
}

const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
for (const stream of [child.stdout, child.stderr]) {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    log.write(chunk);
    const lines = (partial + chunk).split(/\r?\n|\r/);
    partial = lines.pop() ?? '';
    for (const line of lines) offer(line);
  });
  stream.on('end', () => {
    if (partial !== '') offer(partial);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  log.write(`relay-progress: ${command[0]} could not start: ${error.message}\n`);
  finish(127);
});
child.on('close', (code, signal) => finish(code ?? (signal === null ? 1 : 128 + ({ SIGINT: 2, SIGTERM: 15 }[signal] ?? 1))));
