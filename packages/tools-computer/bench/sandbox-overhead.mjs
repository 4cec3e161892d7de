// The added cost of the command sandbox per trivial call. Runs the BUILT package (run `npx tsup` first):
// `node bench/sandbox-overhead.mjs [--pairs N]`. Interleaves N pairs (default 50) of `command` `true` through the
// tool, unsandboxed then sandboxed (the machine's load drifts; pairs cancel it), and prints the medians and the
// median of the pairwise differences against the target (15 ms on Linux). A third call in each round runs in
// a sandbox without cgroups (RLIMIT_NPROC only, no memory limit) to show what the cgroup placement costs.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCommandSandbox, createComputerTools } from '@core/tools-computer';

const TARGET_MS = 15;
const pairsIndex = process.argv.indexOf('--pairs');
const pairs = pairsIndex === -1 ? 50 : Number(process.argv[pairsIndex + 1]);

const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const p95 = (samples) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * 0.95))];

const home = mkdtempSync(path.join(os.tmpdir(), 'ankole-sandbox-bench-'));
const sandbox = createCommandSandbox();
const withoutCgroups = createCommandSandbox({ noCgroups: true });
try {
  const status = await sandbox.status();
  if (!status.available) {
    console.log(`sandbox-overhead: no sandbox here, nothing to measure: ${status.reason}`);
    process.exit(0);
  }
  const tool = (mode) => createComputerTools({ home, sandbox: mode }).find((candidate) => candidate.name === 'command');
  const plain = tool('unsandboxed');
  const boxed = tool(sandbox);
  const light = tool(withoutCgroups);
  const call = async (command) => {
    const started = process.hrtime.bigint();
    const result = await command.execute({ command: 'true' }, { signal: new AbortController().signal, callId: 'bench', toolName: 'command' });
    if (result.isError) throw new Error(`command failed: ${String(result.content)}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let warm = 0; warm < 3; warm += 1) {
    await call(plain);
    await call(boxed);
    await call(light);
  }
  const plainSamples = [];
  const boxedSamples = [];
  const lightSamples = [];
  for (let pair = 0; pair < pairs; pair += 1) {
    plainSamples.push(await call(plain));
    boxedSamples.push(await call(boxed));
    lightSamples.push(await call(light));
  }
  const overhead = boxedSamples.map((sample, index) => sample - plainSamples[index]);
  const [load1] = os.loadavg();
  console.log(`sandbox-overhead: ${status.mechanism}, limits by ${status.limits}, seccomp ${status.seccomp ? 'on' : 'off'}; ${pairs} pairs; load average ${load1.toFixed(1)} on ${os.cpus().length} cores`);
  console.log(`  command \`true\` unsandboxed   median ${median(plainSamples).toFixed(2).padStart(7)} ms  p95 ${p95(plainSamples).toFixed(2).padStart(7)} ms`);
  console.log(`  command \`true\` sandboxed     median ${median(boxedSamples).toFixed(2).padStart(7)} ms  p95 ${p95(boxedSamples).toFixed(2).padStart(7)} ms`);
  const cgroupCost = boxedSamples.map((sample, index) => sample - lightSamples[index]);
  console.log(`  sandboxed without cgroups   median ${median(lightSamples).toFixed(2).padStart(7)} ms  (the cgroup placement: median ${median(cgroupCost).toFixed(2)} ms of the overhead)`);
  const added = median(overhead);
  console.log(`  added by the sandbox        median ${added.toFixed(2).padStart(7)} ms  p95 ${p95(overhead).toFixed(2).padStart(7)} ms  target ${TARGET_MS} ms  ratio ${(added / TARGET_MS).toFixed(2)}`);
} finally {
  await sandbox.close();
  await withoutCgroups.close();
  rmSync(home, { recursive: true, force: true });
}
