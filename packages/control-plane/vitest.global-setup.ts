import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestSource } from '../../vitest.shared';
import { setupTestPostgres } from './src/testing.js';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The sandbox threads load the built `dist/sandbox-worker.js` (a thread cannot load the TypeScript sources). Under
 * turbo, `test` runs after `build`; when run by hand, this rebuilds that one file (without types) if a source is
 * newer. Then one PostgreSQL server for this package's test run: DATABASE_URL / TEST_DATABASE_URL, or a throwaway
 * one; returns its teardown.
 */
export default function setup(): Promise<() => Promise<void>> {
  const worker = path.join(root, 'dist', 'sandbox-worker.js');
  if (!existsSync(worker) || statSync(worker).mtimeMs < newestSource(path.join(root, 'src'))) {
    const tsup = path.join(path.dirname(createRequire(import.meta.url).resolve('tsup/package.json')), 'dist', 'cli-default.js');
    execFileSync(process.execPath, [tsup, 'src/sandbox-worker.ts', '--no-config', '--format', 'esm', '--target', 'node20', '--sourcemap', '--out-dir', 'dist'], {
      cwd: root,
      stdio: 'ignore',
    });
  }
  return setupTestPostgres();
}
