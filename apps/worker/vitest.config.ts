import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ankole-source'] },
  ssr: { resolve: { conditions: ['ankole-source'] } },
  // The global setup (PostgreSQL) runs in vitest's own environment: resolve workspace packages to sources there too.
  environments: { __vitest__: { resolve: { conditions: ['ankole-source'] } } },
  test: {
    include: ['src/**/*.test.ts'],
    // The JSON report feeds the workspace-wide summary line of scripts/test.sh.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
