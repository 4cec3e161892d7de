import { createCommandSandbox, type CommandSandbox } from './command-sandbox.js';

let shared: CommandSandbox | undefined;

/**
 * The sandbox of computer tools built without one (`ComputerContext.sandbox` unset): made at the first call of
 * this function and kept for the process, its files and cgroups removed when the process exits. A worker passes
 * its own instead (`createCommandSandbox`) and closes it itself.
 */
export function processCommandSandbox(): CommandSandbox {
  if (shared !== undefined) return shared;
  const sandbox = createCommandSandbox();
  shared = sandbox;
  process.once('exit', () => sandbox.closeSync());
  return sandbox;
}
