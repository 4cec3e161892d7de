import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI the tests run as a subprocess (`ANKOLE_TEST_CLI`: another build of it, e.g. one no other build replaces meanwhile). */
export const CLI_PATH = process.env.ANKOLE_TEST_CLI ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/ankole.cjs');

/** A running `ankole` process and what it printed so far. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout holds `text` (rejects after `timeoutMs`). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or the signal) once the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/ankole.cjs ...args` with exactly `env` (plus PATH). */
export function spawnCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForOutput(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(text)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`"${text}" did not appear in ${timeoutMs} ms; stdout so far:\n${stdout}\nstderr:\n${stderr}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs the CLI to the end (killing it after `timeoutMs`). */
export async function runCliProcess(args: string[], env: Record<string, string>, timeoutMs = 25_000) {
  const cli = spawnCli(args, env);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), timeoutMs);
  const { code } = await cli.exited;
  clearTimeout(timer);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
