import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupTestPostgres } from '@core/control-plane/testing';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The worker's tests run its sources, and the workspace packages from theirs; what those load from a build (the
 * control plane's sandbox worker) must be built already (`turbo run build --filter=@core/worker...`). Then the run's
 * PostgreSQL server: `DATABASE_URL` / `TEST_DATABASE_URL`, or a throwaway one (`setupTestPostgres`); returns its teardown.
 */
export default function setup(): Promise<() => Promise<void>> {
  const require = createRequire(path.join(root, 'package.json'));
  const { dependencies } = require('./package.json') as { dependencies: Record<string, string> };
  for (const name of Object.keys(dependencies).filter((dependency) => dependency.startsWith('@core/'))) {
    const folder = path.dirname(require.resolve(`${name}/package.json`));
    if (!existsSync(path.join(folder, 'dist', 'index.js'))) throw new Error(`${name} is not built; run: bash scripts/pnpm.sh exec turbo run build --filter=@core/worker...`);
  }
  return setupTestPostgres();
}
