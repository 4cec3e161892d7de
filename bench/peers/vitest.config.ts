import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['ankole-source'] },
  ssr: { resolve: { conditions: ['ankole-source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 30_000,
  },
});
