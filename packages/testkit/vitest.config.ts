import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ankole-source'] },
  ssr: { resolve: { conditions: ['ankole-source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    // The JSON report feeds the workspace-wide summary line of scripts/test.sh.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 20_000,
    // Set-up hooks (schema compiles, servers) are guarded against hangs, not timed: a busy machine can take many times longer.
    hookTimeout: 60_000,
  },
});
