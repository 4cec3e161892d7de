import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI the tests run as a subprocess (`ANKOLE_TEST_CLI`: another build of it, e.g. one no other build replaces meanwhile). */
export const CLI_PATH = process.env.ANKOLE_TEST_CLI ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/ankole.cjs');

/**
 * Where bubblewrap is not installed, the CLI's commands run unsandboxed in these tests (`ANKOLE_UNSANDBOXED_COMMANDS`),
 * said once; the sandbox's own tests (packages/tools-computer) skip there.
 */
const SANDBOX_ENV: Record<string, string> = bubblewrapInstalled() ? {} : { ANKOLE_UNSANDBOXED_COMMANDS: '1' };
if (SANDBOX_ENV.ANKOLE_UNSANDBOXED_COMMANDS !== undefined) console.warn('bubblewrap is not installed: the CLI tests run commands unsandboxed (ANKOLE_UNSANDBOXED_COMMANDS=1).');

function bubblewrapInstalled(): boolean {
  for (const folder of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/bin']) {
    try {
      if (folder !== '') {
        accessSync(path.join(folder, 'bwrap'), constants.X_OK);
        return true;
      }
    } catch {
      // not here
    }
  }
  return false;
}

/** The words the turn header has on commands in these tests (sandboxed, or not where bubblewrap is missing). */
export const COMMANDS_HEADER = SANDBOX_ENV.ANKOLE_UNSANDBOXED_COMMANDS === undefined ? 'commands sandboxed (no network)' : 'commands NOT sandboxed (commands.unsandboxed)';

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
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...SANDBOX_ENV, ...env },
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
