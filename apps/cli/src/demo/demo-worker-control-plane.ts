import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CliError } from '../cli/cli-error.js';
import type { ParsedCommandLine } from '../cli/parse-command-line.js';
import { stringValue } from '../cli/parse-command-line.js';
import type { ControlPlaneChoice } from '../control-plane/control-plane-choice.js';

/** The database of `ankole worker --demo`, and how to remove it when it was a temporary one. */
export interface DemoWorkerDatabase {
  choice: ControlPlaneChoice;
  /** Said in the worker's first line: where to give it work. */
  note: string;
  /** Removes a temporary database (nothing for one given with --data-dir). */
  remove(): Promise<void>;
}

/**
 * `ankole worker --demo` answers every turn with a canned reply, so it never works a shared queue: it runs on its own
 * embedded database, the one given with `--data-dir`, else a new temporary one removed when it stops. The control
 * plane variables of the environment (DATABASE_URL, ANKOLE_CONTROL_PLANE_URL, ANKOLE_DATA_DIR) are not used.
 * @throws CliError (exit code 2) when `--control-plane` or `--database-url` is given.
 */
export async function demoWorkerDatabase(values: ParsedCommandLine['values'], cwd: string): Promise<DemoWorkerDatabase> {
  for (const option of ['control-plane', 'database-url']) {
    if (stringValue(values, option) !== undefined) {
      throw new CliError(
        'demo_shared_queue',
        `ankole worker --demo answers every turn with a canned reply, so it never works a shared queue: leave out --${option} (it runs on its own embedded database: --data-dir DIR, or a temporary one).`,
      );
    }
  }
  const given = stringValue(values, 'data-dir');
  if (given !== undefined) {
    const dataDir = path.resolve(cwd, given);
    return { choice: { kind: 'embedded', dataDir, source: '--data-dir', exists: existsSync(dataDir) }, note: '', remove: async () => undefined };
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'ankole-demo-worker-'));
  const dataDir = path.join(folder, 'pglite');
  return {
    choice: { kind: 'embedded', dataDir, source: '--data-dir', exists: false },
    note: ` Its own temporary database (removed when it stops): give it work with --data-dir ${dataDir}.`,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
