import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestSource } from '../../vitest.shared';
import { setupTestPostgres } from '@core/control-plane/testing';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The CLI tests spawn the built `dist/ankole.cjs`, which bundles the workspace packages from their sources. Under
 * turbo, `test` runs after `build`; when run by hand, this rebuilds the CLI (`tsup`, then `build-cli.mjs`) if
 * its sources or those of a workspace package it depends on are newer than the build. The workspace packages
 * must be built already (`turbo run build --filter=@core/cli...`). Then the run's PostgreSQL server:
 * `DATABASE_URL` / `TEST_DATABASE_URL`, or a throwaway one (`setupTestPostgres`); returns its teardown.
 */
export default function setup(): Promise<() => Promise<void>> {
  const cli = path.join(root, 'dist', 'ankole.cjs');
  const require = createRequire(cli);
  const { dependencies } = require('../package.json') as { dependencies: Record<string, string> };
  const packages = Object.keys(dependencies)
    .filter((dependency) => dependency.startsWith('@core/'))
    .map((name) => ({ name, folder: path.dirname(require.resolve(`${name}/package.json`)) }));
  const library = path.join(root, 'dist', 'index.js');
  const ownNewest = newestSource(path.join(root, 'src'));
  const newest = Math.max(ownNewest, ...packages.map(({ folder }) => newestSource(path.join(folder, 'src'))));
  const libraryStale = !existsSync(library) || statSync(library).mtimeMs < ownNewest;
  if (libraryStale) {
    const tsup = path.join(path.dirname(createRequire(import.meta.url).resolve('tsup/package.json')), 'dist', 'cli-default.js');
    execFileSync(process.execPath, [tsup], { cwd: root, stdio: 'ignore' });
  }
  if (!existsSync(cli) || statSync(cli).mtimeMs < newest) execFileSync(process.execPath, ['build-cli.mjs'], { cwd: root, stdio: 'ignore' });
  for (const { name, folder } of packages) {
    if (!existsSync(path.join(folder, 'dist', 'index.js'))) throw new Error(`${name} is not built; run: bash scripts/pnpm.sh exec turbo run build --filter=@core/cli...`);
  }
  return setupTestPostgres();
}
